// Types of libminimax: an Engine that searches in a Worker.
import type { SearchOptions, SearchResult, MctsResult, Progress, Move } from './sync.js';
export * from './sync.js';

/** A game compiled in, by name and position. */
export interface NativeGameSpec {
  name: 'tic_tac_toe' | 'connect_four' | 'othello' | 'hex' | `hex:${number}` | 'breakthrough';
  position?: string;
}

/** Your own game, in a module the Worker imports: `export default class MyGame { constructor(setup) ... }` (or a function returning a game). */
export interface ModuleGameSpec {
  /** An absolute URL, such as new URL('./my-game.js', import.meta.url). */
  module: string | URL;
  /** The export that makes the game (default "default"): a class or a function. */
  export?: string;
  /** What the class or function is given: anything that can be copied to a Worker. */
  setup?: unknown;
}

export interface EngineSearchOptions extends Omit<SearchOptions, 'onProgress' | 'shouldStop'> {
  /** Cancels the search: the Promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called on this thread with each report. */
  onProgress?: (report: Progress) => void;
}

/** Whether memory can be shared with a Worker here (a cross-origin isolated page, or Node). */
export function canShareMemory(): boolean;

export class Engine {
  /**
   * Starts the Worker and loads the module. shareMemory: false cancels by restarting the
   * Worker. threads (1 to 256, default 1): helper Workers sharing the module's memory,
   * where memory can be shared; one thread elsewhere, with no error.
   */
  static create(options?: { shareMemory?: boolean; threads?: number }): Promise<Engine>;
  readonly sharesMemory: boolean;
  /** The threads its searches run on: 1, or 1 and the helper Workers that started. */
  readonly threads: number;
  search(game: NativeGameSpec | ModuleGameSpec, options?: EngineSearchOptions & { method?: 'alphabeta' | 'pvs' | 'exact' | 'minimax' }): Promise<SearchResult>;
  search(game: NativeGameSpec | ModuleGameSpec, options: EngineSearchOptions & { method: 'mcts' }): Promise<MctsResult>;
  terminate(): void;
}

export type { Move };
