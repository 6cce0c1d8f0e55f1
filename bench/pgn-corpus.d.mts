// Types of bench/pgn-corpus.mjs for the TypeScript tests.
export interface GenerateOptions {
  seed?: number;
  games?: number;
  variations?: boolean;
  comments?: boolean;
  chess960?: boolean;
  maxPlies?: number;
  doubleComments?: boolean;
}
export function rng(seed: number): () => number;
export function generatePgn(options?: GenerateOptions): string;
export function writeCorpus(
  file: string,
  options?: { mb?: number; seed?: number; variations?: boolean; comments?: boolean },
): {
  bytes: number;
  games: number;
};
