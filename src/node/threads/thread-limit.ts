// The thread limit, in one place: the pool (src/node/threads/pool.ts) and the command line's --threads check use it
// without the command line loading the pool (worker threads) before it starts any.
import { availableParallelism } from 'node:os';

/** The most threads a pool or --threads takes: 4 per core. Called once per option check or pool. */
export function maxThreads(): number {
  return 4 * availableParallelism();
}
