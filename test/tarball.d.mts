// Types of test/tarball.mjs for the TypeScript tests.
export declare const NPM_CLI: string | undefined;
export declare function npm(args: string[], cwd: string, env?: NodeJS.ProcessEnv): string;
export interface Installed {
  /** Temporary directory holding the tarball, the bare PATH and the project. */
  work: string;
  tarball: string;
  /** The consumer project; the package is in its node_modules. */
  project: string;
  /** The install's environment: PREBUILDS_ONLY=1, no compiler on PATH (Linux, macOS). */
  env: NodeJS.ProcessEnv;
  /** npm install's stdout, install script output included. */
  installLog: string;
  cleanup(): void;
}
export declare function packAndInstall(tarball?: string): Installed;
