/** Vite's `?worker` imports: a Worker class whose script is a file of the bundle (no blob: URL). */
declare module '*?worker' {
  const WorkerConstructor: new () => Worker;
  export default WorkerConstructor;
}
