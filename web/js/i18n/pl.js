// Katalog polski.
export default {
  lang: 'Polski',
  title: 'Double Solitaire',
  money: '{sign}${n}',
  card: '{rank} {suit}',
  ranks: { A: 'as', 2: 'dwójka', 3: 'trójka', 4: 'czwórka', 5: 'piątka', 6: 'szóstka', 7: 'siódemka', 8: 'ósemka', 9: 'dziewiątka', T: 'dziesiątka', J: 'walet', Q: 'dama', K: 'król' },
  suits: { S: 'pik', H: 'kier', D: 'karo', C: 'trefl' },
  hud: { score: 'Wynik', moves: 'Ruchy', time: 'Czas', undo: 'Cofnij', undoLeft: { one: 'Pozostało 1 cofnięcie', few: 'Pozostały {n} cofnięcia', many: 'Pozostało {n} cofnięć', other: 'Pozostały {n} cofnięcia' }, code: 'Kod gry', copy: 'Kopiuj kod gry', share: 'Udostępnij to rozdanie', copied: 'Skopiowano kod', menu: 'Nowa gra', help: 'Jak grać', settings: 'Ustawienia' },
  pile: { stock: { one: 'Talia, 1 karta', few: 'Talia, {n} karty', many: 'Talia, {n} kart', other: 'Talia, {n} karty' }, stockEmpty: 'Talia pusta', recycle: 'Talia pusta, dotknij, aby odwrócić stos odrzuconych', waste: 'Stos odrzuconych', empty: 'pusty', found: 'Stosy końcowe', slot: 'Stos końcowy {suit} {n}', column: 'Kolumna {n}', down: 'zakryte: {n}', cards: { one: '1 karta', few: '{n} karty', many: '{n} kart', other: '{n} karty' } },
  newGame: { title: 'Nowa gra', draw: 'Dobieranie', easy: 'Łatwa: po 1 karcie', hard: 'Trudna: po 3 karty', scoring: 'Punktacja', normal: 'Normal', vegas: 'Vegas', deal: 'Rozdaj', code: 'Kod gry', codeHint: 'Wpisz lub wklej kod, np. DS1-D1N-AAAAAAB', open: 'Otwórz', resume: 'Niedokończone gry', none: 'Brak niedokończonych gier', started: '{code} · wynik {score} · ruchy {moves}', cancel: 'Anuluj', winnable: 'Tylko wygrywalne rozdania', winnableHint: 'Rozdawaj tylko gry, które solver serwera wygrał: każdą da się wygrać.', noWinnable: 'Nie znamy jeszcze wygrywalnego rozdania tego rodzaju, więc to rozdanie jest losowe.' },
  home: { tagline: 'Klondike na dwie talie: 104 karty, dziewięć kolumn i osiem stosów końcowych do ułożenia od asa do króla.', play: 'Graj', mode: '{draw} · {scoring}', race: 'Wyścig', continue: 'Kontynuuj', options: 'Inne rozdania i kody', back: 'Start', games: 'Moje gry' },
  replay: { title: 'Powtórka', first: 'Do rozdania', prev: 'Ruch wstecz', play: 'Odtwórz', pause: 'Pauza', next: 'Ruch naprzód', last: 'Do końca', jump: 'Ruch', speed: 'Tempo', share: 'Udostępnij', deal: 'Zagraj to rozdanie', copied: 'Link skopiowany', pos: 'ruch {i} z {n}', soloInfo: 'Wynik {score} · ruchy: {moves} · {time}', raceInfo: '{one} {a} : {b} {two}', seat: 'Gracz {n}', notYet: 'Tę grę można obejrzeć ponownie, gdy się skończy.' },
  games: { title: 'Moje gry', none: 'Nie ma jeszcze skończonych gier.', more: 'Więcej', watch: 'Obejrzyj', solo: 'Pasjans', race: 'Wyścig', won: 'wygrana', over: 'skończona', close: 'Zamknij' },
  game: { stuck: 'Nie ma już przydatnych ruchów. Możesz cofnąć albo zacząć nową grę.', won: 'Wygrana!', again: 'Nowa gra', close: 'Zamknij', loading: 'Wczytywanie…', winnable: 'Wygrywalne', winnableHint: 'Solver serwera wygrał to rozdanie: da się je wygrać.', replay: 'Obejrzyj powtórkę' },
  net: { reconnecting: 'Utracono połączenie, łączenie ponownie…', back: 'Połączono ponownie' },
  err: { illegal_move: 'Ten ruch jest niedozwolony.', bad_code: 'Ten kod gry jest nieprawidłowy.', game_over: 'Ta gra jest zakończona.', conflict: 'Gra się zmieniła; pokazano aktualny układ.', not_found: 'Nie znaleziono gry.', rate_limited: 'Trochę wolniej, proszę.', unavailable: 'Serwer jest zajęty, ponawiam.', network: 'Brak połączenia z serwerem.', too_late: 'Za późno: drugi gracz był szybszy.', not_your_turn: 'To nie twój ruch.', forbidden: 'To nie należy do ciebie.', generic: 'Coś poszło nie tak.' },
  code: { parts: 'Kod gry ma trzy części rozdzielone myślnikami, np. DS1-D1N-AAAAAAB.', prefix: 'Kod gry zaczyna się od DS1 lub DS2 (pasjans), DR1 lub DR2 (wyścig).', draw: 'Po pierwszym myślniku jest dobieranie: D1 lub D3.', options: 'Opcje to dobieranie i punktacja (D1N, D3V) w pasjansie oraz dobieranie, przetasowania i talie (D1UI, D3SM) w wyścigu.', scoring: 'Punktacja musi być N (zwykła) lub V (Vegas).', redeal: 'Przetasowanie musi być U (bez limitu) lub S (jedno przejście).', decks: 'Talie muszą być I (niezależne) lub M (lustrzane).', secret: 'Ostatnia część musi mieć 64 cyfry szesnastkowe.', deal: 'Rozdanie to 7 liter od A do Z.' },
  settings: { title: 'Ustawienia', language: 'Język', dblclick: 'Podwójne kliknięcie', dblclickHint: 'Dwa szybkie dotknięcia przenoszą kartę lub ciąg do najlepszej kolumny', fourColor: 'Talia czterokolorowa', theme: 'Wygląd', auto: 'Jak w urządzeniu', light: 'Jasny', dark: 'Ciemny', leftHanded: 'Układ dla leworęcznych', close: 'Gotowe' },
  race: {
    quick: 'Szybka gra', quickNote: 'Zagraj z kimś o podobnym rankingu, z ustawieniami Nowego wyścigu poniżej.', quickBtn: 'Szybka gra', quickWaiting: 'Szukam przeciwnika…', quickNobody: 'Nikt się jeszcze nie pojawił.', quickBot: 'Zagraj z komputerem', myRating: 'Twój ranking: {n}', ratingOf: 'Ranking {n}', ratingChange: 'Ranking {before} → {after} ({delta})', nameTitle: 'Twoje imię', nameNote: 'Inni gracze widzą je w poczekalni i w wyścigach.', nameSave: 'Zapisz', nameSkip: 'Pomiń', nameBad: 'Tego imienia nie można użyć. Wybierz inne.',
    title: 'Wyścig', enter: 'Ścigaj się z innym graczem', lobby: 'Poczekalnia', solo: 'Start', create: 'Nowy wyścig', createBtn: 'Utwórz wyścig',
    d1: 'Dobieraj 1', d3: 'Dobieraj 3', redeal: 'Przejścia przez talię', unlimited: 'Bez limitu', single: 'Jedno przejście',
    decks: 'Talie', independent: 'Osobne tasowania', mirrored: 'Lustrzane (ten sam układ)', turns: 'Kolejność', simultaneous: 'Jednocześnie', alternating: 'Na zmianę',
    bonus: 'Kto wyłoży wszystko, wygrywa bez liczenia kart', bonusShort: 'wyłożenie wygrywa', series: 'Gier w serii', seriesOf: 'seria {n}', public: 'Pokaż w poczekalni',
    bot: 'Ścigaj się z komputerem', botSpeed: 'Szybkość komputera', slow: 'Wolno', normal: 'Normalnie', fast: 'Szybko', botBtn: 'Start',
    open: 'Otwarte wyścigi', none: 'Teraz nie ma otwartych wyścigów. Utwórz własny!', join: 'Dołącz', someone: 'Ktoś', computer: 'Komputer', botMark: 'Gra serwer', nobody: 'Jeszcze nikt', full: 'Ten wyścig ma już dwóch graczy; oglądasz go.',
    waiting: 'Czekamy na przeciwnika', invite: 'Link z zaproszeniem', copy: 'Kopiuj', copied: 'Link skopiowany', waitNote: 'Wyślij link znajomemu. Wyścig zacznie się, gdy tylko dołączy.',
    you: 'Ty', myBoard: 'Twoja plansza', theirBoard: 'Plansza: {name}', found: 'Wspólne stosy końcowe', countOf: '{name}: {n} kart na stosach końcowych',
    cancelled: 'Wyścig został odwołany', cancelledNote: 'Jego twórca odwołał go, zanim ktokolwiek dołączył.',
    go: 'Start!', watching: 'Oglądasz', over: 'Koniec wyścigu', yourTurn: 'Twój ruch', theirTurn: 'Ruch: {name}', pass: 'Pas',
    blocked: 'Zablokowany', offline: 'Rozłączony', resign: 'Poddaj się', resignQ: 'Poddać ten wyścig?', resignNote: 'Przeciwnik wygra tę grę.',
    claim: 'Odbierz zwycięstwo', dropped: '{name} stracił połączenie. Zwycięstwo odbierzesz za {time}.', droppedLong: '{name} nie wrócił.',
    oppLeft: '{name} stracił połączenie', oppBack: '{name} wrócił', arrived: '{name} dołączył. Start!', tooLate: 'Za późno!',
    result: 'Wynik', won: 'Wygrywasz!', draw: 'Remis', winner: 'Wygrywa {name}', final: '{a} {n} – {m} {b}',
    reason: { outMe: 'Wykładasz wszystkie karty na stosy końcowe.', out: '{name} wyłożył wszystkie karty na stosy końcowe.', blocked: 'Obaj gracze byli zablokowani.', resign: '{loser} się poddał.', forfeit: '{loser} zbyt długo nie wracał i przegrał walkowerem.' },
    tie: { lastMe: 'Liczba kart była równa, więc rozstrzygnęło ostatnie zagranie na stos końcowy, a było twoje.', last: 'Liczba kart była równa, więc rozstrzygnęło ostatnie zagranie na stos końcowy: należało do gracza {name}.', none: 'Nikt nie położył karty na stos końcowy, więc jest remis. Rewanż to nowe rozdanie.', bonus: '{name} wyłożył wszystko, a to wygrywa bez liczenia kart.' },
    rematch: 'Rewanż', nextGame: 'Następna gra', offer: '{name} chce rewanżu.', offerMine: 'Czekamy, aż {name} przyjmie rewanż.', accept: 'Przyjmij', decline: 'Odrzuć', declinedMine: '{name} odrzuca rewanż.', declinedTheirs: 'Rewanż odrzucony.', declinedTitle: 'Rewanż odrzucony', waitAccept: 'Czekamy, aż {name} przyjmie rewanż…', seriesGame: 'Gra {k} z {n}', seriesScore: '{a} {n} – {m} {b}', seriesWon: 'Wygrywasz serię!', seriesWinner: 'Serię wygrywa {name}',
    help: [
      ['Wyścig', 'Dwóch graczy, dwie talie o różnych koszulkach i osiem wspólnych stosów końcowych pośrodku. Każdy układa własnego Klondike’a z siedmiu kolumn, ze swojej talii i swojego stosu rezerwowego.'],
      ['Zasady gry', 'Swoje karty przekładasz jak w pasjansie: malejąco, na zmianę kolorami, a na puste kolumny tylko króle. Każda twoja dostępna karta może trafić na dowolny stos końcowy swojego koloru, także na karty przeciwnika. Karty ze stosów końcowych nie wracają.'],
      ['Szybkość', 'W wyścigu jednoczesnym gracie naraz: gdy obaj celujecie w to samo miejsce, wygrywa karta, która dotrze pierwsza, a druga wraca. Na zmianę grasz, dopóki nie dobierzesz karty z talii albo nie spasujesz.'],
      ['Koniec', 'Wyścig kończy się, gdy ktoś wyłoży wszystkie karty, gdy obaj są zablokowani albo gdy ktoś się podda. Wygrywa ten, kto ma więcej własnych kart na stosach końcowych; przy remisie wygrywa autor ostatniego zagrania na stos końcowy.'],
      ['Klawiatura', 'Strzałki przechodzą między stosami, Enter lub spacja podnosi i odkłada, F kładzie na stos końcowy, T na najlepszą kolumnę, D dobiera, P pasuje.']
    ]
  },
  fair: {
    chosen: 'Twórca wyścigu sam wybrał to rozdanie — może znać każdą kartę.', chosenMark: 'Wybrane rozdanie', mirrored: 'Talie lustrzane: obaj gracze dostają ten sam układ, więc każdy dowiaduje się czegoś o swoich zakrytych kartach z ruchów przeciwnika.',
    joinTitle: 'Dołączyć do tego wyścigu?', private: 'Ten wyścig jest prywatny: otwórz go linkiem z zaproszeniem.', print: 'Odcisk rozdania',
    printNote: 'Ten odcisk ustala rozdanie przed pierwszym ruchem; na końcu jest sprawdzany.', check: 'Sprawdź ten wyścig',
    checking: 'Sprawdzanie…', ok: 'Rozdanie się zgadza: SHA-256 kodu i soli jest równy odciskowi pokazanemu przed pierwszym ruchem.',
    okLate: 'Rozdanie zgadza się z odciskiem, który serwer pokazuje teraz; ta przeglądarka nie widziała wyścigu przed jego końcem.',
    bad: 'Rozdanie nie zgadza się z odciskiem pokazanym w trakcie gry.', insecure: 'To sprawdzenie wymaga bezpiecznego połączenia (https). Możesz sprawdzić ręcznie: SHA-256 z „kod:sól” musi być równy odciskowi.',
    missing: 'Serwer nie ujawnił kodu ani soli tego wyścigu.', code: 'Kod', salt: 'Sól', seen: 'Odcisk przed pierwszym ruchem',
    final: 'Odcisk na końcu', computed: 'SHA-256(kod:sól), policzony tutaj', codeTitle: 'Co oznacza ten kod', how: 'Z kodu każdy może odtworzyć rozdanie.'
  },
  help: {
    title: 'Jak grać',
    sections: [
      ['Cel gry', 'Przenieś wszystkie 104 karty (dwie pełne talie) na osiem stosów końcowych, od asa do króla. Każdy kolor ma swój rząd z dwoma stosami.'],
      ['Kolumny', 'Rozdanie leży w dziewięciu kolumnach. Kartę kładziesz na odkrytej karcie innego koloru, o jeden stopień wyższej, na przykład czerwoną szóstkę na czarnej siódemce. Można przenieść kartę razem ze wszystkim, co na niej leży. Pustą kolumnę zajmie tylko król, sam lub z kartami. Odsłonięta zakryta karta sama się odwraca.'],
      ['Talia i stos odrzuconych', 'Dotknij talii, by wyłożyć karty na stos odrzuconych. W trybie Łatwym wychodzi jedna karta, w Trudnym trzy i grać można tylko ostatnią. Gdy talia się skończy przy punktacji Normal, dotknij jej, by odwrócić stos odrzuconych (kosztuje to 100 punktów). Przy punktacji Vegas talię przechodzi się tylko raz.'],
      ['Przenoszenie kart', 'Przeciągnij kartę lub ciąg na właściwe miejsce. Karta upuszczona gdziekolwiek na stosach końcowych sama znajdzie swoje miejsce. Dotknięcie wierzchniej karty wysyła ją na stos końcowy. Przy włączonym podwójnym kliknięciu dwa szybkie dotknięcia szukają miejsca w kolumnach. Wierzchnią kartę ze stosu końcowego można przeciągnąć z powrotem do kolumny.'],
      ['Punkty', 'Normal: 10 za każdą kartę na stosie końcowym, 5 za kartę ze stosu odrzuconych do kolumny, 5 za każdą odwróconą zakrytą kartę. Wynik nie spada poniżej zera. Vegas: zaczynasz od -104 dolarów i zyskujesz 5 za każdą kartę na stosie końcowym.'],
      ['Cofanie i kody', 'Cofnąć można do 200 kroków razem z ich punktami; licznik ruchów liczy dalej. Każde rozdanie ma kod, np. DS1-D1N-AAAAAAB: udostępnij go, a każdy zagra dokładnie tę samą partię. Gra nigdy nie ogłasza porażki: gdy nie ma już nic przydatnego, przy talii pojawia się komunikat z przyciskami Cofnij i Nowa gra.'],
      ['Klawiatura', 'Strzałki przechodzą między stosami i kartami. Enter lub Spacja podnosi kartę i odkłada ją na wybrany stos albo dobiera z talii. F wysyła kartę na stos końcowy, T do najlepszej kolumny, D dobiera, U lub Ctrl+Z cofa, N zaczyna nową grę, Esc anuluje.']
    ]
  }
};
