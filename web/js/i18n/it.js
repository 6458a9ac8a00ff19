// Catalogo italiano.
export default {
  lang: 'Italiano',
  title: 'Double Solitaire',
  money: '{sign}{n} $',
  card: '{rank} di {suit}',
  ranks: { A: 'asso', 2: 'due', 3: 'tre', 4: 'quattro', 5: 'cinque', 6: 'sei', 7: 'sette', 8: 'otto', 9: 'nove', T: 'dieci', J: 'fante', Q: 'regina', K: 're' },
  suits: { S: 'picche', H: 'cuori', D: 'quadri', C: 'fiori' },
  hud: { score: 'Punti', moves: 'Mosse', time: 'Tempo', undo: 'Annulla', undoLeft: { one: 'Resta 1 annullamento', few: 'Restano {n} annullamenti', many: 'Restano {n} annullamenti', other: 'Restano {n} annullamenti' }, code: 'Codice partita', copy: 'Copia il codice', share: 'Condividi questa distribuzione', copied: 'Codice copiato', menu: 'Nuova partita', help: 'Come si gioca', settings: 'Impostazioni' },
  pile: { stock: { one: 'Mazzo, 1 carta', few: 'Mazzo, {n} carte', many: 'Mazzo, {n} carte', other: 'Mazzo, {n} carte' }, stockEmpty: 'Mazzo vuoto', recycle: 'Mazzo vuoto, tocca per rigirare lo scarto', waste: 'Scarto', empty: 'vuoto', found: 'Fondazioni', slot: 'Fondazione di {suit} {n}', column: 'Colonna {n}', down: '{n} coperte', cards: { one: '1 carta', few: '{n} carte', many: '{n} carte', other: '{n} carte' } },
  newGame: { title: 'Nuova partita', draw: 'Pesca', easy: 'Facile: pesca 1', hard: 'Difficile: pesca 3', scoring: 'Punteggio', normal: 'Normal', vegas: 'Vegas', deal: 'Distribuisci', code: 'Codice partita', codeHint: 'Scrivi o incolla un codice come DS1-D1N-AAAAAAB', open: 'Apri', resume: 'Partite in sospeso', none: 'Nessuna partita in sospeso', started: '{code} · {score} · {moves} mosse', cancel: 'Annulla', winnable: 'Solo smazzate vincibili', winnableHint: 'Distribuisci solo partite che il risolutore del server ha vinto: si possono vincere tutte.', noWinnable: 'Non si conosce ancora nessuna partita vincibile di questo tipo, quindi questa è casuale.' },
  home: { tagline: 'Klondike con due mazzi: 104 carte, nove colonne e otto fondazioni da riempire dall’asso al re.', play: 'Gioca', mode: '{draw} · {scoring}', race: 'Sfida', continue: 'Continua', options: 'Altre distribuzioni e codici', back: 'Inizio', games: 'Le mie partite' },
  replay: { title: 'Replay', first: 'Alla distribuzione', prev: 'Una mossa indietro', play: 'Riproduci', pause: 'Pausa', next: 'Una mossa avanti', last: 'Alla fine', jump: 'Mossa', speed: 'Velocità', share: 'Condividi', deal: 'Gioca questa partita', copied: 'Link copiato', pos: 'mossa {i} di {n}', soloInfo: 'Punti {score} · {moves} mosse · {time}', raceInfo: '{one} {a} : {b} {two}', seat: 'Giocatore {n}', notYet: 'Questa partita si può rivedere quando è finita.' },
  games: { title: 'Le mie partite', none: 'Ancora nessuna partita finita.', more: 'Altre', watch: 'Guarda', solo: 'Solitario', race: 'Gara', won: 'vinta', over: 'finita', close: 'Chiudi' },
  game: { stuck: 'Non restano mosse utili. Puoi annullare o iniziare una nuova partita.', won: 'Hai vinto!', again: 'Nuova partita', close: 'Chiudi', loading: 'Caricamento…', winnable: 'Vincibile', winnableHint: 'Il risolutore del server ha vinto questa smazzata: si può vincere.', replay: 'Guarda il replay' },
  net: { reconnecting: 'Connessione persa, riconnessione…', back: 'Di nuovo connesso' },
  err: { illegal_move: 'Questa mossa non è consentita.', bad_code: 'Questo codice partita non è valido.', game_over: 'Questa partita è finita.', conflict: 'La partita è cambiata; ecco la posizione attuale.', not_found: 'Partita non trovata.', rate_limited: 'Un po’ più piano, per favore.', unavailable: 'Il server è occupato, nuovo tentativo.', network: 'Nessuna connessione al server.', too_late: 'Troppo tardi: l’altro giocatore è arrivato prima.', not_your_turn: 'Non tocca a te.', forbidden: 'Questo non è tuo.', generic: 'Qualcosa è andato storto.' },
  code: { parts: 'Un codice di partita ha tre parti separate da trattini, come DS1-D1N-AAAAAAB.', prefix: 'Un codice di partita inizia con DS1 o DS2 (solitario), DR1 o DR2 (gara).', draw: 'Dopo il primo trattino viene la pescata: D1 o D3.', options: 'Le opzioni sono pescata e punteggio (D1N, D3V) in solitario, pescata, ridistribuzione e mazzi (D1UI, D3SM) in una gara.', scoring: 'Il punteggio deve essere N (Normale) o V (Vegas).', redeal: 'La ridistribuzione deve essere U (illimitata) o S (un solo passaggio).', decks: 'I mazzi devono essere I (indipendenti) o M (speculari).', secret: "L'ultima parte deve avere 64 cifre esadecimali.", deal: 'La smazzata deve essere di 7 lettere, dalla A alla Z.' },
  settings: { title: 'Impostazioni', language: 'Lingua', dblclick: 'Doppio clic', dblclickHint: 'Due tocchi rapidi portano una carta o una sequenza nella colonna migliore', fourColor: 'Mazzo a quattro colori', theme: 'Aspetto', auto: 'Come il dispositivo', light: 'Chiaro', dark: 'Scuro', leftHanded: 'Disposizione per mancini', close: 'Fatto' },
  race: {
    quick: 'Partita rapida', quickNote: 'Sfida qualcuno con un punteggio simile al tuo, con le impostazioni di Nuova sfida qui sotto.', quickBtn: 'Partita rapida', quickWaiting: 'Cerco un avversario…', quickNobody: 'Non è ancora arrivato nessuno.', quickBot: 'Gioca contro il computer', myRating: 'Il tuo punteggio: {n}', ratingOf: 'Punteggio {n}', ratingChange: 'Punteggio {before} → {after} ({delta})', nameTitle: 'Il tuo nome', nameNote: 'Gli altri giocatori lo vedono nella sala e nelle sfide.', nameSave: 'Salva', nameSkip: 'Salta', nameBad: 'Questo nome non si può usare. Scegline un altro.',
    title: 'Sfida', enter: 'Sfida un altro giocatore', lobby: 'Sala', solo: 'Inizio', create: 'Nuova sfida', createBtn: 'Crea la sfida',
    d1: 'Pesca 1', d3: 'Pesca 3', redeal: 'Giri del mazzo', unlimited: 'Illimitati', single: 'Un solo giro',
    decks: 'Mazzi', independent: 'Mescolati a parte', mirrored: 'A specchio (stessa disposizione)', turns: 'Turni', simultaneous: 'Simultanei', alternating: 'Alternati',
    bonus: 'Chi chiude vince, a prescindere dal conteggio', bonusShort: 'chi chiude vince', series: 'Partite della serie', seriesOf: 'serie di {n}', public: 'Mostrala nella sala',
    bot: 'Sfida il computer', botSpeed: 'Velocità del computer', slow: 'Lenta', normal: 'Normale', fast: 'Veloce', botBtn: 'Inizia',
    open: 'Sfide aperte', none: 'Nessuna sfida aperta al momento. Creane una!', join: 'Partecipa', someone: 'Qualcuno', computer: 'Computer', botMark: 'Gioca il server', nobody: 'Ancora nessuno', full: 'Questa sfida ha già due giocatori; la stai guardando.',
    waiting: 'In attesa di un avversario', invite: 'Link di invito', copy: 'Copia', copied: 'Link copiato', waitNote: 'Manda il link a un amico. La sfida parte appena entra.',
    you: 'Tu', myBoard: 'Il tuo tavolo', theirBoard: 'Tavolo di {name}', found: 'Fondazioni comuni', countOf: '{name}: {n} carte sulle fondazioni',
    cancelled: 'La sfida è stata annullata', cancelledNote: 'Chi l’ha creata l’ha annullata prima che entrasse qualcuno.',
    go: 'Via!', watching: 'Stai guardando', over: 'Sfida finita', yourTurn: 'Tocca a te', theirTurn: 'Tocca a {name}', pass: 'Passa',
    blocked: 'Bloccato', offline: 'Disconnesso', resign: 'Abbandona', resignQ: 'Abbandonare la sfida?', resignNote: 'Il tuo avversario vince questa partita.',
    claim: 'Reclama la vittoria', dropped: '{name} ha perso la connessione. Potrai reclamare la vittoria tra {time}.', droppedLong: '{name} non è tornato.',
    oppLeft: '{name} ha perso la connessione', oppBack: '{name} è tornato', arrived: '{name} è entrato. Via!', tooLate: 'Troppo tardi!',
    result: 'Risultato', won: 'Hai vinto!', draw: 'Pareggio', winner: 'Ha vinto {name}', final: '{a} {n} – {m} {b}',
    reason: { outMe: 'Hai chiuso: tutte le tue carte sulle fondazioni.', out: '{name} ha chiuso: tutte le sue carte sulle fondazioni.', blocked: 'Entrambi i giocatori erano bloccati.', resign: '{loser} ha abbandonato.', forfeit: '{loser} è rimasto assente troppo a lungo e ha perso a tavolino.' },
    tie: { lastMe: 'Il conteggio era pari, quindi ha deciso l’ultima giocata sulle fondazioni, ed era tua.', last: 'Il conteggio era pari, quindi ha deciso l’ultima giocata sulle fondazioni: l’ha fatta {name}.', none: 'Nessuno ha messo carte sulle fondazioni: è pareggio. La rivincita usa un nuovo mescolamento.', bonus: '{name} ha chiuso, e chi chiude vince a prescindere dal conteggio.' },
    rematch: 'Rivincita', nextGame: 'Partita successiva', offer: '{name} vuole la rivincita.', offerMine: 'In attesa che {name} accetti la rivincita.', accept: 'Accetta', decline: 'Rifiuta', declinedMine: '{name} ha rifiutato la rivincita.', declinedTheirs: 'Hai rifiutato la rivincita.', declinedTitle: 'Rivincita rifiutata', waitAccept: 'In attesa che {name} accetti la rivincita…', seriesGame: 'Partita {k} di {n}', seriesScore: '{a} {n} – {m} {b}', seriesWon: 'Hai vinto la serie!', seriesWinner: '{name} ha vinto la serie',
    help: [
      ['La sfida', 'Due giocatori, due mazzi con il dorso di colore diverso e otto fondazioni comuni al centro. Ognuno gioca un Klondike di sette colonne con il proprio mazzo e il proprio tallone.'],
      ['Come si gioca', 'Sposti le tue carte come nel solitario: in scala discendente a colori alterni, e solo i re nelle colonne vuote. Ogni tua carta disponibile può andare su qualsiasi fondazione del suo seme, anche sopra le carte dell’avversario. Le carte sulle fondazioni non tornano indietro.'],
      ['Velocità', 'Nella sfida simultanea giocate insieme: se puntate entrambi allo stesso posto, vince la carta che arriva prima e l’altra torna dov’era. In quella a turni alternati giochi finché non peschi dal tallone o passi.'],
      ['La fine', 'La sfida finisce quando qualcuno chiude, quando entrambi sono bloccati o quando qualcuno abbandona. Vince chi ha più carte proprie sulle fondazioni; a parità vince chi ha fatto l’ultima giocata sulle fondazioni.'],
      ['Tastiera', 'Le frecce passano da una pila all’altra, Invio o Spazio prendono e posano, F manda su una fondazione, T sulla colonna migliore, D pesca, P passa.']
    ]
  },
  fair: {
    chosen: 'Chi ha creato la sfida ha scelto questa distribuzione: potrebbe conoscere ogni carta.', chosenMark: 'Distribuzione scelta',
    mirrored: 'Mazzi a specchio: entrambi ricevono la stessa disposizione, quindi ognuno scopre qualcosa delle proprie carte coperte dalle mosse dell’avversario.',
    joinTitle: 'Partecipare a questa sfida?', private: 'Questa sfida è privata: aprila con il suo link di invito.', print: 'Impronta della distribuzione',
    printNote: 'Questa impronta fissa la distribuzione prima della prima mossa; viene verificata alla fine.', check: 'Verifica questa sfida',
    checking: 'Verifica in corso…', ok: 'La distribuzione corrisponde: lo SHA-256 di codice e sale è uguale all’impronta mostrata prima della prima mossa.',
    okLate: 'La distribuzione corrisponde all’impronta che il server mostra ora; questo browser non ha visto la sfida prima della fine.',
    bad: 'La distribuzione non corrisponde all’impronta mostrata durante la partita.', insecure: 'Questa verifica richiede una connessione sicura (https). Puoi verificare a mano: lo SHA-256 di «codice:sale» deve essere uguale all’impronta.',
    missing: 'Il server non ha rivelato il codice e il sale di questa sfida.', code: 'Codice', salt: 'Sale', seen: 'Impronta prima della prima mossa',
    final: 'Impronta alla fine', computed: 'SHA-256(codice:sale), calcolato qui', codeTitle: 'Cosa significa questo codice',
    how: 'Con il codice chiunque può ricostruire la distribuzione.'
  },
  help: {
    title: 'Come si gioca',
    sections: [
      ['Lo scopo', 'Portare tutte le 104 carte (due mazzi completi) sulle otto fondazioni, dall’asso al re. Ogni seme ha una fila con due fondazioni.'],
      ['Le colonne', 'La distribuzione occupa nove colonne. Una carta va su una carta scoperta dell’altro colore e di un valore più alto: per esempio un sei rosso su un sette nero. Puoi spostare una carta insieme a tutto quello che le sta sopra. Una colonna vuota accetta solo un re, da solo o con le sue carte. Una carta coperta che resta in cima si gira da sola.'],
      ['Mazzo e scarto', 'Tocca il mazzo per girare carte sullo scarto. In Facile esce una carta alla volta; in Difficile ne escono tre e si gioca solo l’ultima. Quando il mazzo finisce con il punteggio Normal, toccalo per rigirare lo scarto (costa 100 punti). Con Vegas il mazzo si percorre una volta sola.'],
      ['Spostare le carte', 'Trascina una carta o una sequenza dove deve andare. Una carta lasciata in un punto qualsiasi delle fondazioni trova da sola il suo posto. Un tocco su una carta in cima la manda su una fondazione. Con il Doppio clic attivo, due tocchi rapidi le cercano un posto nelle colonne. La carta in cima a una fondazione si può riportare in una colonna trascinandola.'],
      ['I punti', 'Normal: 10 per ogni carta su una fondazione, 5 per una carta dallo scarto a una colonna, 5 per ogni carta coperta che si gira. Il punteggio non scende mai sotto zero. Vegas: si parte da -104 dollari e si guadagnano 5 dollari per ogni carta su una fondazione.'],
      ['Annullare e codici', 'Annulla toglie fino a 200 passi con i loro punti; il contatore delle mosse continua a salire. Ogni distribuzione ha un codice come DS1-D1N-AAAAAAB: condividilo e chiunque giocherà esattamente la stessa partita. Il gioco non dichiara mai una sconfitta: quando non resta nulla di utile, un avviso accanto al mazzo lo dice e offre Annulla e Nuova partita.'],
      ['Tastiera', 'Le frecce si spostano tra pile e carte. Invio o Spazio prendono una carta e la posano sulla pila scelta, oppure pescano dal mazzo. F manda una carta su una fondazione, T nella colonna migliore, D pesca, U o Ctrl+Z annulla, N inizia una nuova partita, Esc annulla la scelta.']
    ]
  }
};
