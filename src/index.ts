/** The library's public face: re-exports only. Each part adds its own export lines. */
export type * from './model/input.js';
