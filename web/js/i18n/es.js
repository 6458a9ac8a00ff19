// Catálogo en español.
export default {
  lang: 'Español',
  title: 'Double Solitaire',
  money: '{sign}${n}',
  card: '{rank} de {suit}',
  ranks: { A: 'as', 2: 'dos', 3: 'tres', 4: 'cuatro', 5: 'cinco', 6: 'seis', 7: 'siete', 8: 'ocho', 9: 'nueve', T: 'diez', J: 'jota', Q: 'reina', K: 'rey' },
  suits: { S: 'picas', H: 'corazones', D: 'diamantes', C: 'tréboles' },
  hud: { score: 'Puntos', moves: 'Jugadas', time: 'Tiempo', undo: 'Deshacer', undoLeft: { one: 'Queda 1 paso para deshacer', few: 'Quedan {n} pasos para deshacer', many: 'Quedan {n} pasos para deshacer', other: 'Quedan {n} pasos para deshacer' }, code: 'Código de partida', copy: 'Copiar el código', share: 'Compartir este reparto', copied: 'Código copiado', menu: 'Nueva partida', help: 'Cómo se juega', settings: 'Ajustes' },
  pile: { stock: { one: 'Mazo de robo, 1 carta', few: 'Mazo de robo, {n} cartas', many: 'Mazo de robo, {n} cartas', other: 'Mazo de robo, {n} cartas' }, stockEmpty: 'Mazo de robo vacío', recycle: 'Mazo vacío, toca para dar la vuelta al descarte', waste: 'Descarte', empty: 'vacío', found: 'Fundaciones', slot: 'Fundación de {suit} {n}', column: 'Columna {n}', down: '{n} boca abajo', cards: { one: '1 carta', few: '{n} cartas', many: '{n} cartas', other: '{n} cartas' } },
  newGame: { title: 'Nueva partida', draw: 'Robo', easy: 'Fácil: robo de 1', hard: 'Difícil: robo de 3', scoring: 'Puntuación', normal: 'Normal', vegas: 'Vegas', deal: 'Repartir', code: 'Código de partida', codeHint: 'Escribe o pega un código como DS1-D1N-AAAAAAB', open: 'Abrir', resume: 'Partidas sin terminar', none: 'No hay partidas sin terminar', started: '{code} · {score} · {moves} movimientos', cancel: 'Cancelar', winnable: 'Solo repartos ganables', winnableHint: 'Reparte solo partidas que el solucionador del servidor ha ganado: todas se pueden ganar.', noWinnable: 'Aún no se conoce ninguna partida ganable de este tipo, así que esta es al azar.' },
  home: { tagline: 'Klondike con dos barajas: 104 cartas, nueve columnas y ocho fundaciones que llenar del as al rey.', play: 'Jugar', mode: '{draw} · {scoring}', race: 'Carrera', continue: 'Continuar', options: 'Otros repartos y códigos', back: 'Inicio', games: 'Mis partidas' },
  replay: { title: 'Repetición', first: 'Al reparto', prev: 'Un movimiento atrás', play: 'Reproducir', pause: 'Pausa', next: 'Un movimiento adelante', last: 'Al final', jump: 'Movimiento', speed: 'Velocidad', share: 'Compartir', deal: 'Jugar este reparto', copied: 'Enlace copiado', pos: 'movimiento {i} de {n}', soloInfo: 'Puntos {score} · {moves} movimientos · {time}', raceInfo: '{one} {a} : {b} {two}', seat: 'Jugador {n}', notYet: 'Esta partida se puede volver a ver cuando termine.' },
  games: { title: 'Mis partidas', none: 'Aún no hay partidas terminadas.', more: 'Más', watch: 'Ver', solo: 'Solitario', race: 'Carrera', won: 'ganada', over: 'terminada', close: 'Cerrar' },
  game: { stuck: 'No quedan movimientos útiles. Puedes deshacer o empezar otra partida.', won: '¡Has ganado!', again: 'Nueva partida', close: 'Cerrar', loading: 'Cargando…', winnable: 'Ganable', winnableHint: 'El solucionador del servidor ha ganado este reparto: se puede ganar.', replay: 'Ver la repetición' },
  net: { reconnecting: 'Conexión perdida, reconectando…', back: 'Conectado de nuevo' },
  err: { illegal_move: 'Ese movimiento no está permitido.', bad_code: 'Ese código de partida no es válido.', game_over: 'Esta partida ha terminado.', conflict: 'La partida ha cambiado; se muestra la posición actual.', not_found: 'No se encuentra la partida.', rate_limited: 'Más despacio, por favor.', unavailable: 'El servidor está ocupado; se reintenta.', network: 'Sin conexión con el servidor.', too_late: 'Tarde: el otro jugador llegó antes.', not_your_turn: 'No es tu turno.', forbidden: 'Eso no es tuyo.', generic: 'Algo ha fallado.' },
  code: { parts: 'Un código de partida tiene tres partes separadas por guiones, como DS1-D1N-AAAAAAB.', prefix: 'Un código de partida empieza por DS1 o DS2 (solitario), DR1 o DR2 (carrera).', draw: 'Tras el primer guion va el robo: D1 o D3.', options: 'Las opciones son robo y puntuación (D1N, D3V) en solitario, y robo, repartos y barajas (D1UI, D3SM) en una carrera.', scoring: 'La puntuación debe ser N (Normal) o V (Vegas).', redeal: 'El reparto debe ser U (ilimitado) o S (una sola pasada).', decks: 'Las barajas deben ser I (independientes) o M (espejo).', secret: 'La última parte debe tener 64 dígitos hexadecimales.', deal: 'El reparto debe ser de 7 letras, de la A a la Z.' },
  settings: { title: 'Ajustes', language: 'Idioma', dblclick: 'Doble clic', dblclickHint: 'Dos toques rápidos llevan una carta o una escalera a la mejor columna', fourColor: 'Baraja de cuatro colores', theme: 'Aspecto', auto: 'Como mi dispositivo', light: 'Claro', dark: 'Oscuro', leftHanded: 'Disposición para zurdos', close: 'Listo' },
  race: {
    quick: 'Partida rápida', quickNote: 'Compite con alguien de una puntuación parecida, con los ajustes de Nueva carrera de abajo.', quickBtn: 'Partida rápida', quickWaiting: 'Buscando rival…', quickNobody: 'Aún no ha aparecido nadie.', quickBot: 'Jugar contra el ordenador', myRating: 'Tu puntuación: {n}', ratingOf: 'Puntuación {n}', ratingChange: 'Puntuación {before} → {after} ({delta})', nameTitle: 'Tu nombre', nameNote: 'Los demás jugadores lo ven en la sala y en las carreras.', nameSave: 'Guardar', nameSkip: 'Omitir', nameBad: 'Ese nombre no se puede usar. Elige otro.',
    title: 'Carrera', enter: 'Competir con otro jugador', lobby: 'Sala', solo: 'Inicio', create: 'Nueva carrera', createBtn: 'Crear carrera',
    d1: 'Robar 1', d3: 'Robar 3', redeal: 'Vueltas al mazo', unlimited: 'Ilimitadas', single: 'Una sola vuelta',
    decks: 'Barajas', independent: 'Cada uno la suya', mirrored: 'En espejo (misma disposición)', turns: 'Turnos', simultaneous: 'Simultáneos', alternating: 'Alternos',
    bonus: 'Quien termina gana, sin contar cartas', bonusShort: 'terminar gana', series: 'Partidas de la serie', seriesOf: 'serie de {n}', public: 'Mostrarla en la sala',
    bot: 'Competir con el ordenador', botSpeed: 'Velocidad del ordenador', slow: 'Lenta', normal: 'Normal', fast: 'Rápida', botBtn: 'Empezar',
    open: 'Carreras abiertas', none: 'Ahora no hay carreras abiertas. ¡Crea una!', join: 'Unirse', someone: 'Alguien', computer: 'Ordenador', botMark: 'Lo juega el servidor', nobody: 'Nadie aún', full: 'Esta carrera ya tiene dos jugadores; la estás mirando.',
    waiting: 'Esperando a un rival', invite: 'Enlace de invitación', copy: 'Copiar', copied: 'Enlace copiado', waitNote: 'Envía el enlace a un amigo. La carrera empieza en cuanto se una.',
    you: 'Tú', myBoard: 'Tu tablero', theirBoard: 'Tablero de {name}', found: 'Fundaciones compartidas', countOf: '{name}: {n} cartas en las fundaciones',
    cancelled: 'La carrera se ha cancelado', cancelledNote: 'Quien la creó la canceló antes de que se uniera nadie.',
    go: '¡A correr!', watching: 'Mirando', over: 'Carrera terminada', yourTurn: 'Tu turno', theirTurn: 'Turno de {name}', pass: 'Pasar',
    blocked: 'Bloqueado', offline: 'Desconectado', resign: 'Rendirse', resignQ: '¿Rendirse en esta carrera?', resignNote: 'Tu rival gana esta partida.',
    claim: 'Reclamar la victoria', dropped: '{name} perdió la conexión. Podrás reclamar la victoria en {time}.', droppedLong: '{name} no ha vuelto.',
    oppLeft: '{name} perdió la conexión', oppBack: '{name} ha vuelto', arrived: '{name} se ha unido. ¡Adelante!', tooLate: '¡Tarde!',
    result: 'Resultado', won: '¡Has ganado!', draw: 'Empate', winner: 'Ha ganado {name}', final: '{a} {n} – {m} {b}',
    reason: { outMe: 'Terminaste: todas tus cartas en las fundaciones.', out: '{name} terminó: todas sus cartas en las fundaciones.', blocked: 'Los dos jugadores quedaron bloqueados.', resign: '{loser} se rindió.', forfeit: '{loser} tardó demasiado en volver y perdió.' },
    tie: { lastMe: 'Hubo empate en cartas, así que decidió la última jugada a las fundaciones, y fue tuya.', last: 'Hubo empate en cartas, así que decidió la última jugada a las fundaciones: la hizo {name}.', none: 'Nadie subió ninguna carta a las fundaciones: es un empate. La revancha reparte de nuevo.', bonus: '{name} terminó, y eso gana sin contar cartas.' },
    rematch: 'Revancha', nextGame: 'Siguiente partida', offer: '{name} quiere la revancha.', offerMine: 'Esperando a que {name} acepte la revancha.', accept: 'Aceptar', decline: 'Rechazar', declinedMine: '{name} rechazó la revancha.', declinedTheirs: 'Rechazaste la revancha.', declinedTitle: 'Revancha rechazada', waitAccept: 'Esperando a que {name} acepte la revancha…', seriesGame: 'Partida {k} de {n}', seriesScore: '{a} {n} – {m} {b}', seriesWon: '¡Has ganado la serie!', seriesWinner: '{name} ha ganado la serie',
    help: [
      ['La carrera', 'Dos jugadores, dos barajas de dorso distinto y ocho fundaciones comunes en el centro. Cada uno juega un Klondike de siete columnas con su propia baraja y su propio mazo.'],
      ['Cómo se juega', 'Mueves tus cartas como en solitario: en escalera descendente de colores alternos, y solo reyes en columnas vacías. Cualquier carta tuya disponible puede ir a cualquier fundación de su palo, también sobre las cartas del rival. Lo que sube a las fundaciones ya no baja.'],
      ['Velocidad', 'En la carrera simultánea jugáis a la vez: si los dos buscáis el mismo hueco, gana la carta que llega antes y la otra vuelve a su sitio. En la alterna juegas hasta que robas del mazo o pasas.'],
      ['El final', 'Termina cuando alguien coloca todas sus cartas, cuando los dos están bloqueados o cuando alguien se rinde. Gana quien tenga más cartas propias en las fundaciones; si hay empate, gana quien hizo la última jugada a las fundaciones.'],
      ['Teclado', 'Las flechas recorren los montones, Intro o Espacio cogen y sueltan, F sube a una fundación, T lleva a la mejor columna, D roba y P pasa.']
    ]
  },
  fair: {
    chosen: 'Quien creó la carrera eligió este reparto: puede conocer todas las cartas.', chosenMark: 'Reparto elegido',
    mirrored: 'Barajas en espejo: los dos reciben la misma disposición, así que cada uno descubre sus propias cartas ocultas por lo que juega el otro.',
    joinTitle: '¿Unirte a esta carrera?', private: 'Esta carrera es privada: ábrela con su enlace de invitación.', print: 'Huella del reparto',
    printNote: 'Esta huella fija el reparto antes de la primera jugada; se comprueba al final.', check: 'Comprobar esta carrera',
    checking: 'Comprobando…', ok: 'El reparto coincide: el SHA-256 del código y la sal es igual a la huella mostrada antes de la primera jugada.',
    okLate: 'El reparto coincide con la huella que muestra ahora el servidor; este navegador no vio la carrera antes de que terminara.',
    bad: 'El reparto no coincide con la huella mostrada durante la partida.', insecure: 'Esta comprobación necesita una conexión segura (https). Puedes hacerla a mano: el SHA-256 de «código:sal» debe ser igual a la huella.',
    missing: 'El servidor no ha revelado el código ni la sal de esta carrera.', code: 'Código', salt: 'Sal', seen: 'Huella antes de la primera jugada',
    final: 'Huella al final', computed: 'SHA-256(código:sal), calculado aquí', codeTitle: 'Qué significa este código',
    how: 'Con el código, cualquiera puede reconstruir el reparto.'
  },
  help: {
    title: 'Cómo se juega',
    sections: [
      ['El objetivo', 'Subir las 104 cartas (dos barajas completas) a las ocho fundaciones, del as al rey. Cada palo tiene una fila con dos fundaciones.'],
      ['Las columnas', 'El reparto ocupa nueve columnas. Una carta se pone sobre otra visible del color contrario y de un valor más alto: un seis rojo sobre un siete negro, por ejemplo. Puedes mover una carta con todo lo que tiene encima. Una columna vacía solo acepta un rey, con o sin cartas encima. Cuando una carta oculta queda al descubierto, se gira sola.'],
      ['Mazo y descarte', 'Toca el mazo para pasar cartas al descarte. En Fácil sale una carta cada vez; en Difícil salen tres y solo se juega la última. Si el mazo se acaba con la puntuación Normal, tócalo para volver a poner el descarte boca abajo (cuesta 100 puntos). Con Vegas el mazo se recorre una sola vez.'],
      ['Mover cartas', 'Arrastra una carta o una escalera a su sitio. Si sueltas una carta en cualquier parte de las fundaciones, ella sola encuentra su hueco. Un toque en una carta de arriba la manda a una fundación. Con Doble clic activado, dos toques rápidos le buscan sitio en las columnas. La carta de arriba de una fundación se puede arrastrar de vuelta a una columna.'],
      ['Los puntos', 'Normal: 10 por cada carta en una fundación, 5 por pasar una carta del descarte a una columna y 5 por cada carta oculta que se gira. Nunca baja de cero. Vegas: empiezas con -104 dólares y ganas 5 por cada carta en una fundación.'],
      ['Deshacer y códigos', 'Deshacer recupera hasta 200 pasos con sus puntos; el contador de movimientos sigue subiendo. Cada reparto tiene un código como DS1-D1N-AAAAAAB: compártelo y cualquiera jugará exactamente la misma partida. Nunca se declara una derrota: si no queda nada útil, un aviso junto al mazo lo indica y ofrece Deshacer y Nueva partida.'],
      ['Teclado', 'Las flechas recorren montones y cartas. Intro o Espacio cogen una carta y la dejan en el montón elegido, o roban del mazo. F manda una carta a una fundación, T a la mejor columna, D roba, U o Ctrl+Z deshace, N abre una partida nueva, Esc cancela.']
    ]
  }
};
