// The run the page will train, started paused as soon as the page opens, so that pressing
// Train only resumes it: the worker, the engine's compilation, the training data's download and
// inflation, the gold links and the first weights are ready by then. (A cold start took 1.7 to
// 3.8 s before the first step in headless Chromium on the loaded two-core test machine, of the
// page's 5 s goal for its first matrix.) The data is fetched when the training page is opened,
// never by the site's other pages.
//
// One prepared run at a time, for the choices on screen: a change of choice replaces it (a
// fresh paused run with the new options); take() hands it over to be trained and forgets it.

export class WarmRun {
  #start;
  #onReady;
  #run = null;
  #key = '';

  // start(options) -> a run (web/lib's startTraining). onReady(ready): the prepared run is
  // loaded and waits (true), or there is none that does (false), or it failed ('error': its
  // reason is shown once Train takes it, which then starts another).
  constructor(start, { onReady = () => {} } = {}) {
    this.#start = start;
    this.#onReady = onReady;
  }

  // A paused run for these options, unless the prepared one has them already.
  prepare(options) {
    const key = JSON.stringify(options);
    if (this.#run && key === this.#key) return;
    this.#run?.dispose();
    this.#onReady(false);
    this.#key = key;
    const run = this.#start(options);
    this.#run = run;
    run.on('state', ({ state }) => this.#run === run && this.#onReady(state === 'paused' || (state === 'error' ? 'error' : false)));
    run.pause().catch(() => {}); // a failed load says so in its state, once taken
  }

  // -> the run for these options, paused or still loading: the prepared one if it has them
  // and has not failed or stopped, else a new one (paused like it). The caller resumes it.
  take(options) {
    this.prepare(options);
    const run = this.#run;
    this.#run = null;
    this.#key = '';
    this.#onReady(false);
    if (run.state === 'error' || run.state === 'stopped') {
      run.dispose();
      const fresh = this.#start(options);
      fresh.pause().catch(() => {});
      return fresh;
    }
    return run;
  }

  dispose() {
    this.#run?.dispose();
    this.#run = null;
    this.#key = '';
    this.#onReady(false);
  }
}
