// English catalogue. Every language file has exactly the same keys.
export default {
  lang: 'English',
  title: 'Double Solitaire',
  money: '{sign}${n}',
  card: '{rank} of {suit}',
  ranks: { A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king' },
  suits: { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' },
  hud: { score: 'Score', moves: 'Moves', time: 'Time', undo: 'Undo', undoLeft: { one: '1 undo step left', few: '{n} undo steps left', many: '{n} undo steps left', other: '{n} undo steps left' }, code: 'Game code', copy: 'Copy the game code', share: 'Share this deal', copied: 'Code copied', menu: 'New game', help: 'How to play', settings: 'Settings' },
  pile: { stock: { one: 'Stock, 1 card', few: 'Stock, {n} cards', many: 'Stock, {n} cards', other: 'Stock, {n} cards' }, stockEmpty: 'Stock empty', recycle: 'Stock empty, tap to turn the waste over', waste: 'Waste', empty: 'empty', found: 'Foundations', slot: '{suit} foundation {n}', column: 'Column {n}', down: '{n} face-down', cards: { one: '1 card', few: '{n} cards', many: '{n} cards', other: '{n} cards' } },
  newGame: { title: 'New game', draw: 'Draw', easy: 'Easy: draw 1', hard: 'Hard: draw 3', scoring: 'Scoring', normal: 'Normal', vegas: 'Vegas', deal: 'Deal', code: 'Game code', codeHint: 'Type or paste a code like DS1-D1N-AAAAAAB', open: 'Open', resume: 'Unfinished games', none: 'No unfinished games', started: '{code} · score {score} · {moves} moves', cancel: 'Cancel', winnable: 'Winnable deals only', winnableHint: 'Deal only games that the server\'s solver has won: every one can be won.', noWinnable: 'No winnable deal of this kind is known yet, so this deal is random.' },
  home: { tagline: 'Klondike with two decks: 104 cards, nine columns, eight foundations to fill from ace to king.', play: 'Play', mode: '{draw} · {scoring}', race: 'Race', continue: 'Continue', options: 'Other deals and codes', back: 'Home', games: 'My games' },
  replay: { title: 'Replay', first: 'To the deal', prev: 'One move back', play: 'Play', pause: 'Pause', next: 'One move on', last: 'To the end', jump: 'Move', speed: 'Speed', share: 'Share', deal: 'Play this deal', copied: 'Link copied', pos: 'move {i} of {n}', soloInfo: 'Score {score} · {moves} moves · {time}', raceInfo: '{one} {a} : {b} {two}', seat: 'Player {n}', notYet: 'This game can be watched again once it is finished.' },
  games: { title: 'My games', none: 'No finished games yet.', more: 'More', watch: 'Watch', solo: 'Solo', race: 'Race', won: 'won', over: 'over', close: 'Close' },
  game: { stuck: 'No useful moves left. You can undo or start a new game.', won: 'You won!', again: 'New game', close: 'Close', loading: 'Loading…', winnable: 'Winnable', winnableHint: 'The server\'s solver has won this deal: it can be won.', replay: 'Watch the replay' },
  net: { reconnecting: 'Connection lost, reconnecting…', back: 'Connected again' },
  err: { illegal_move: 'That move is not allowed.', bad_code: 'That game code is not valid.', game_over: 'This game is finished.', conflict: 'The game was updated; showing the latest position.', not_found: 'Game not found.', rate_limited: 'Slow down a little.', unavailable: 'The server is busy, retrying.', network: 'No connection to the server.', too_late: 'Too late: the other player got there first.', not_your_turn: 'It is not your turn.', forbidden: 'That is not yours.', generic: 'Something went wrong.' },
  code: { parts: 'A game code has three parts separated by dashes, such as DS1-D1N-AAAAAAB.', prefix: 'A game code starts with DS1 or DS2 (solo), DR1 or DR2 (race).', draw: 'After the first dash comes the draw: D1 or D3.', options: 'The options are draw then scoring (D1N, D3V) for a solo game, draw, redeal and decks (D1UI, D3SM) for a race.', scoring: 'The scoring must be N (Normal) or V (Vegas).', redeal: 'The redeal must be U (unlimited) or S (single pass).', decks: 'The decks must be I (independent) or M (mirrored).', secret: 'The last part must be 64 hexadecimal digits.', deal: 'The deal must be 7 letters, A to Z.' },
  settings: { title: 'Settings', language: 'Language', dblclick: 'Double click', dblclickHint: 'Two quick taps move a card or run to the best column', fourColor: 'Four-colour deck', theme: 'Appearance', auto: 'Like my device', light: 'Light', dark: 'Dark', leftHanded: 'Left-handed layout', close: 'Done' },
  race: {
    quick: 'Quick match', quickNote: 'Race someone of about your rating, with the settings of New race below.', quickBtn: 'Quick match', quickWaiting: 'Looking for an opponent…', quickNobody: 'Nobody has turned up yet.', quickBot: 'Play the computer instead', myRating: 'Your rating: {n}', ratingOf: 'Rating {n}', ratingChange: 'Rating {before} → {after} ({delta})', nameTitle: 'Your name', nameNote: 'Other players see it in the lobby and in races.', nameSave: 'Save', nameSkip: 'Skip', nameBad: 'That name cannot be used. Choose another.',
    title: 'Race', enter: 'Race another player', lobby: 'Lobby', solo: 'Home', create: 'New race', createBtn: 'Create race',
    d1: 'Draw 1', d3: 'Draw 3', redeal: 'Passes through the stock', unlimited: 'Unlimited', single: 'Single pass',
    decks: 'Decks', independent: 'Own shuffles', mirrored: 'Mirrored (same layout)', turns: 'Turns', simultaneous: 'Simultaneous', alternating: 'Alternating',
    bonus: 'Going out wins, whatever the counts', bonusShort: 'going out wins', series: 'Games in the series', seriesOf: 'series of {n}', public: 'List it in the lobby',
    bot: 'Race the computer', botSpeed: 'Computer speed', slow: 'Slow', normal: 'Normal', fast: 'Fast', botBtn: 'Start',
    open: 'Open races', none: 'No open races right now. Create one!', join: 'Join', someone: 'Someone', computer: 'Computer', botMark: 'Played by the server', nobody: 'Nobody yet', full: 'This race already has two players; you are watching.',
    waiting: 'Waiting for an opponent', invite: 'Invite link', copy: 'Copy', copied: 'Link copied', waitNote: 'Send the link to a friend. The race starts as soon as they join.',
    you: 'You', myBoard: 'Your board', theirBoard: 'Board of {name}', found: 'Shared foundations', countOf: '{name}: {n} cards on the foundations',
    cancelled: 'The race was cancelled', cancelledNote: 'Its creator cancelled it before anyone joined.',
    go: 'Race on!', watching: 'Watching', over: 'Race over', yourTurn: 'Your turn', theirTurn: 'Turn of {name}', pass: 'Pass',
    blocked: 'Blocked', offline: 'Offline', resign: 'Resign', resignQ: 'Resign this race?', resignNote: 'Your opponent wins this game.',
    claim: 'Claim the win', dropped: '{name} lost the connection. You can claim the win in {time}.', droppedLong: '{name} did not come back.',
    oppLeft: '{name} lost the connection', oppBack: '{name} is back', arrived: '{name} joined. Go!', tooLate: 'Too late!',
    result: 'Result', won: 'You won!', draw: 'Draw', winner: '{name} won', final: '{a} {n} – {m} {b}',
    reason: { outMe: 'You went out: every card on the foundations.', out: '{name} went out: every card on the foundations.', blocked: 'Both players were blocked.', resign: '{loser} resigned.', forfeit: '{loser} stayed away too long and forfeited.' },
    tie: { lastMe: 'The counts were equal, so the last foundation play decided, and it was yours.', last: 'The counts were equal, so the last foundation play decided: {name} made it.', none: 'Nobody played a card to the foundations, so it is a draw. A rematch deals a new shuffle.', bonus: '{name} went out, which wins whatever the counts.' },
    rematch: 'Rematch', nextGame: 'Next game', offer: '{name} wants a rematch.', offerMine: 'Waiting for {name} to accept the rematch.', accept: 'Accept', decline: 'Decline', declinedMine: '{name} declined the rematch.', declinedTheirs: 'You declined the rematch.', declinedTitle: 'Rematch declined', waitAccept: 'Waiting for {name} to accept the rematch…', seriesGame: 'Game {k} of {n}', seriesScore: '{a} {n} – {m} {b}', seriesWon: 'You won the series!', seriesWinner: '{name} won the series',
    help: [
      ['The race', 'Two players, two decks with different backs, one set of eight foundations in the middle. Each of you plays a Klondike of seven columns from your own deck and your own stock.'],
      ['Playing', 'Move your own cards as in solo: build down in alternating colours, kings to empty columns. Any of your available cards may go on any foundation of its suit, also on top of the other player\u2019s cards. Cards on the foundations stay there.'],
      ['Speed', 'In a simultaneous race both play at once: if both of you go for the same spot, the first card to arrive wins it and the other one goes back. In an alternating race you play until you draw from your stock or pass.'],
      ['The end', 'The race ends when someone goes out, when both are blocked, or on a resignation. Whoever has more of their own cards on the foundations wins; on equal counts the last foundation play wins.'],
      ['Keyboard', 'Arrow keys move between piles, Enter or Space picks up and puts down, F plays to a foundation, T to the best column, D draws, P passes.']
    ]
  },
  fair: {
    chosen: 'The host chose this deal — they may know every card.', chosenMark: 'Chosen deal', mirrored: 'Mirrored decks: both players get the same layout, so each of you learns about your own hidden cards from the other’s play.',
    joinTitle: 'Join this race?', private: 'This race is private: open it with its invite link.', print: 'Deal fingerprint',
    printNote: 'This fingerprint fixes the deal before the first move; it is checked at the end.', check: 'Check this race',
    checking: 'Checking…', ok: 'The deal matches: SHA-256 of the code and salt equals the fingerprint shown before the first move.',
    okLate: 'The deal matches the fingerprint the server shows now; this browser did not see the race before it ended.',
    bad: 'The deal does not match the fingerprint shown during play.', insecure: 'This check needs a secure connection (https). You can check by hand: SHA-256 of “code:salt” must equal the fingerprint.',
    missing: 'The server has not revealed the code and salt of this race.', code: 'Code', salt: 'Salt', seen: 'Fingerprint before the first move',
    final: 'Fingerprint at the end', computed: 'SHA-256(code:salt), computed here', codeTitle: 'What this code means',
    how: 'With the code, anyone can rebuild the deal.'
  },
  help: {
    title: 'How to play',
    sections: [
      ['The goal', 'Build all 104 cards (two full decks) onto the eight foundations, from ace up to king. Each suit has a row of two foundations.'],
      ['The columns', 'Nine columns hold the deal. You can put a card on a face-up card of the other colour that is one rank higher, for example a red six on a black seven. You may move a card together with everything lying on it. Only a king, with or without cards on it, can fill an empty column. When a hidden card is uncovered it turns over on its own.'],
      ['Stock and waste', 'Tap the stock to turn cards onto the waste. Easy turns one card at a time, Hard turns three and only the last of them can be played. When the stock runs out in Normal scoring, tap it to turn the waste back over (this costs 100 points). In Vegas scoring you go through the stock only once.'],
      ['Moving cards', 'Drag a card or a run to where it should go. Drop a card anywhere on the foundations and it finds its place. Tap a top card to send it to a foundation. With Double click on, two quick taps look for a spot in the columns. You can drag the top card of a foundation back down to a column when you need it.'],
      ['Points', 'Normal: 10 for each card put on a foundation, 5 for a card from the waste to a column, 5 for each hidden card turned over. The score never drops below zero. Vegas: you start at -104 dollars and earn 5 for each card put on a foundation.'],
      ['Undo and codes', 'Undo takes back up to 200 steps, with their points; the move counter still keeps counting. Every deal has a code such as DS1-D1N-AAAAAAB: share it and anyone gets exactly the same game. The game never declares a loss: when nothing useful is left, a notice by the stock says so and offers Undo and New game.'],
      ['Keyboard', 'Arrow keys move between piles and cards. Enter or Space picks a card up and puts it down on the chosen pile, or draws from the stock. F sends a card to a foundation, T to the best column, D draws, U or Ctrl+Z undoes, N starts a new game, Escape cancels.']
    ]
  }
};
