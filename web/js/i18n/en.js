// English catalogue. Every language file has exactly the same keys.
export default {
  lang: 'English',
  title: 'Double Solitaire',
  money: '{sign}${n}',
  card: '{rank} of {suit}',
  ranks: { A: 'ace', 2: 'two', 3: 'three', 4: 'four', 5: 'five', 6: 'six', 7: 'seven', 8: 'eight', 9: 'nine', T: 'ten', J: 'jack', Q: 'queen', K: 'king' },
  suits: { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' },
  hud: { score: 'Score', moves: 'Moves', time: 'Time', undo: 'Undo', undoLeft: '{n} undo steps left', code: 'Game code', copy: 'Copy the game code', share: 'Share this deal', copied: 'Code copied', menu: 'New game', help: 'How to play', settings: 'Settings' },
  pile: { stock: 'Stock, {n} cards', stockEmpty: 'Stock empty', recycle: 'Stock empty, tap to turn the waste over', waste: 'Waste', empty: 'empty', found: 'Foundations', slot: '{suit} foundation {n}', column: 'Column {n}', down: '{n} face-down', cards: '{n} cards' },
  newGame: { title: 'New game', draw: 'Draw', easy: 'Easy: draw 1', hard: 'Hard: draw 3', scoring: 'Scoring', normal: 'Normal', vegas: 'Vegas', deal: 'Deal', code: 'Game code', codeHint: 'Type or paste a code like DS1-D1N-AAAAAAB', open: 'Open', resume: 'Unfinished games', none: 'No unfinished games', started: '{code} · score {score} · {moves} moves', cancel: 'Cancel' },
  game: { stuck: 'No useful moves left. You can undo or start a new game.', won: 'You won!', summary: 'Score {score} · {moves} moves · {time}', again: 'New game', close: 'Close', loading: 'Loading…' },
  net: { reconnecting: 'Connection lost, reconnecting…', back: 'Connected again' },
  err: { illegal_move: 'That move is not allowed.', bad_code: 'That game code is not valid.', game_over: 'This game is finished.', conflict: 'The game was updated; showing the latest position.', not_found: 'Game not found.', rate_limited: 'Slow down a little.', unavailable: 'The server is busy, retrying.', network: 'No connection to the server.', generic: 'Something went wrong.' },
  settings: { title: 'Settings', language: 'Language', dblclick: 'Double click', dblclickHint: 'Two quick taps move a card or run to the best column', fourColor: 'Four-colour deck', theme: 'Appearance', auto: 'Like my device', light: 'Light', dark: 'Dark', leftHanded: 'Left-handed layout', close: 'Done' },
  help: {
    title: 'How to play',
    sections: [
      ['The goal', 'Build all 104 cards (two full decks) onto the eight foundations, from ace up to king. Each suit has a row of two foundations.'],
      ['The columns', 'Nine columns hold the deal. You can put a card on a face-up card of the other colour that is one rank higher, for example a red six on a black seven. You may move a card together with everything lying on it. Only a king, with or without cards on it, can fill an empty column. When a hidden card is uncovered it turns over on its own.'],
      ['Stock and waste', 'Tap the stock to turn cards onto the waste. Easy turns one card at a time, Hard turns three and only the last of them can be played. When the stock runs out in Normal scoring, tap it to turn the waste back over (this costs 100 points). In Vegas scoring you go through the stock only once.'],
      ['Moving cards', 'Drag a card or a run to where it should go. Drop a card anywhere on the foundations and it finds its place. Tap a top card to send it to a foundation. With Double click on, two quick taps look for a spot in the columns. You can drag the top card of a foundation back down to a column when you need it.'],
      ['Points', 'Normal: 10 for each card put on a foundation, 5 for a card from the waste to a column, 5 for each hidden card turned over. The score never drops below zero. Vegas: you start at -104 dollars and earn 5 for each card put on a foundation.'],
      ['Undo and codes', 'Undo takes back up to 200 steps, with their points; the move counter still keeps counting. Every deal has a code such as DS1-D1N-AAAAAAB: share it and anyone gets exactly the same game. The game never declares a loss: when nothing useful is left, a quiet note says so.'],
      ['Keyboard', 'Arrow keys move between piles and cards. Enter or Space picks a card up and puts it down on the chosen pile, or draws from the stock. F sends a card to a foundation, T to the best column, D draws, U or Ctrl+Z undoes, N starts a new game, Escape cancels.']
    ]
  }
};
