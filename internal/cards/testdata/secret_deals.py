# An independent implementation of the secret deals (DR2, DS2) of the rules:
# SHA-256 stream, rejection, Fisher-Yates, dealing. It wrote the golden files
# internal/race/testdata/deal-DR2-*.json and internal/solo/testdata/DS2-*.json:
#   python3 internal/cards/testdata/secret_deals.py CODE...  (from the repository root)
import hashlib, json, sys
def stream(secret):
    k=0
    while True:
        h=hashlib.sha256(secret+b"dsol-deal"+k.to_bytes(8,'big')).digest()
        yield int.from_bytes(h[:8],'big'); k+=1
def uniform(src,n):
    limit=2**64-(2**64%n)
    while True:
        x=next(src)
        if x<limit: return x%n
def shuffle(src,d):
    for i in range(len(d)-1,0,-1):
        j=uniform(src,i+1); d[i],d[j]=d[j],d[i]
deck52=[r+s for s in "SHDC" for r in "A23456789TJQK"]
def deal(d,n):
    cols=[[] for _ in range(n)]; i=0
    for r in range(n):
        for c in range(r,n):
            cols[c].append(d[i]); i+=1
    return cols, d[i:]
def race(code):
    _,opts,sec=code.split('-'); secret=bytes.fromhex(sec); src=stream(secret)
    a=deck52[:]; shuffle(src,a)
    if opts[3]=='M': b=a[:]
    else: b=deck52[:]; shuffle(src,b)
    seats=[]
    for d in (a,b):
        cols,stock=deal(d,7); seats.append({"columns":cols,"stock":stock})
    return {"code":code,"seats":seats}
def solo(code):
    _,opts,sec=code.split('-'); src=stream(bytes.fromhex(sec))
    d=deck52+deck52; shuffle(src,d); cols,stock=deal(d,9)
    return {"code":code,"columns":cols,"stock":stock}
for code in sys.argv[1:]:
    out = race(code) if code.startswith("DR2") else solo(code)
    path = ("internal/race/testdata/deal-%s.json" if code.startswith("DR2") else "internal/solo/testdata/%s.json") % code
    open(path,"w").write(json.dumps(out,separators=(',',':'))+"\n")
    print(path)
