// Types of libminimax/sync: the searches on the calling thread.

/** A move: an integer (the game's own numbering). */
export type Move = number;

/** How to search. Every key is checked: an unknown one is a BAD_OPTION error. */
export interface SearchOptions {
  /** "alphabeta" (default, iterative deepening), "pvs", "exact" (a proven score), "minimax" or "mcts". */
  method?: 'alphabeta' | 'pvs' | 'exact' | 'minimax' | 'mcts';
  /** Depth limit in plies (alpha-beta family); none by default. */
  depth?: number;
  /** Time limit in milliseconds. */
  timeMs?: number;
  /** Node limit (alpha-beta family). */
  nodes?: number;
  /** Playouts (MCTS); 10,000 by default, or until timeMs when that is given. */
  playouts?: number;
  /** The transposition table's bytes, 64 MiB by default (0: none). It is kept between searches. */
  tableBytes?: number;
  /** Keep what earlier searches stored in the table (default false: cleared first). */
  keepTable?: boolean;
  /** Iterative deepening (default true). */
  iterativeDeepening?: boolean;
  /** Exact mode: search again among equal moves for the fastest win (default true). */
  refineDistance?: boolean;
  /** MCTS's seed (one seed, one result). */
  seed?: number;
  /** MCTS's exploration constant (default sqrt 2). */
  exploration?: number;
  /** Called with each completed depth, and between them every progressMs. */
  onProgress?: (report: Progress) => void;
  /** Milliseconds between two reports (default 100). */
  progressMs?: number;
  /** Asked at each beat; true stops the search (it then answers with what it has). */
  shouldStop?: () => boolean;
  /**
   * Threads, 1 to 256: an Engine's threads by default. More than one only in an Engine
   * created with threads, and only for games compiled in; elsewhere one, with no error.
   */
  threads?: number;
}

/** A report while a search goes on. */
export interface Progress {
  /** "depth": a depth completed; "beat": between depths; "playouts": MCTS. */
  kind: 'depth' | 'beat' | 'playouts';
  depth?: number;
  value: number;
  bestMove: Move | null;
  pv?: Move[];
  /** Nodes (alpha-beta: at a beat, the moves played so far). */
  nodes: number;
  playouts?: number;
  elapsedMs: number;
}

/** An alpha-beta, PVS, minimax or exact search's answer. */
export interface SearchResult {
  method: 'alphabeta' | 'pvs' | 'exact' | 'minimax';
  bestMove: Move | null;
  /** The score of best play, in the game's view (MAX's, or the side to move's for games scored that way). */
  value: number;
  exact: boolean;
  proven: boolean;
  pliesToEnd: number | null;
  depth: number;
  pv: Move[];
  nodes: number;
  leaves: number;
  elapsedMs: number;
  /** Whether shouldStop (a cancelled search) ended it. */
  stopped: boolean;
  /** The threads that searched. */
  threads: number;
  /** A user's game without evaluate() whose frontier was scored 0. */
  unevaluated?: boolean;
}

/** What MCTS knows of one root move. */
export interface RootMove {
  move: Move;
  visits: number;
  /** Mean reward for the side to move at the root, 0 to 1. */
  mean: number;
  proven: number | null;
}

/** An MCTS search's answer. */
export interface MctsResult {
  method: 'mcts';
  bestMove: Move | null;
  value: number;
  proven: { reward: number; score: number | null } | null;
  root: RootMove[];
  playouts: number;
  nodes: number;
  depth: number;
  elapsedMs: number;
  treeFull: boolean;
  stopped: boolean;
  /** The threads that searched. */
  threads: number;
}

/** Your own game: the Python package's protocol, in JavaScript. Moves are integers. */
export interface Game {
  moves(): Move[];
  play(move: Move): void;
  undo(move: Move): void;
  /** null while the game goes on; else the final score, in MAX's view unless maxToMove is absent (then the first player's at the root). */
  outcome(): number | null | undefined;
  /** A heuristic score for depth-limited searches (integers). */
  evaluate?(): number;
  /** A key of the position for the table (an integer or a BigInt). */
  hash?(): number | bigint | null;
  /** Whether MAX is to move. */
  maxToMove?(): boolean;
}

/** What went wrong; `code` says which. */
export class MinimaxError extends Error {
  code: 'BAD_GAME' | 'BAD_POSITION' | 'ILLEGAL_MOVE' | 'BAD_OPTION' | 'GAME_ERROR' | 'OUT_OF_MEMORY' | 'TOO_DEEP' | 'CRASHED' | 'CLOSED';
}

/** A game compiled into the module, at a position (the moves from the start). */
export class NativeGame {
  /** "tic_tac_toe", "connect_four" (position: column digits 1-7), "othello", "hex" or "hex:N", "breakthrough". */
  constructor(name: string, position?: string);
  readonly name: string;
  readonly position: string;
  readonly line: Move[];
  readonly width: number;
  readonly height: number;
  /** 0: the first player; 1: the second. */
  readonly toMove: 0 | 1;
  legalMoves(): Move[];
  /** Plays a legal move; otherwise ILLEGAL_MOVE. */
  play(move: Move): this;
  undo(): boolean;
  /** 1: the first player won; -1: the second; 0: a draw; null: not over. */
  winner(): 1 | -1 | 0 | null;
  /** Cells row by row from the top: 0 empty, 1 the first player's, 2 the second's. */
  board(): number[];
  clone(): NativeGame;
  search(options?: SearchOptions & { method?: 'alphabeta' | 'pvs' | 'exact' | 'minimax' }): SearchResult;
  search(options: SearchOptions & { method: 'mcts' }): MctsResult;
  /** Frees the module's memory for this game now (else when it is collected). */
  free(): void;
}

/** Loads the module on this thread (once). */
export function init(module?: WebAssembly.Module): Promise<void>;
/** Searches your own game object on this thread; it is back in its position afterwards. */
export function searchGame(game: Game, options?: SearchOptions): SearchResult | MctsResult;
export function version(): string;
