// index.html's download bar while the model loads: megabytes so far (of the total, where the
// server says it), then that the engine is starting once the file is in.

// $: the page's data-role lookup (progress, progress-label, progress-bar, progress-text).
export class LoadProgress {
  #$;

  constructor($) {
    this.#$ = $;
  }

  start(S) {
    const $ = this.#$;
    $('progress').hidden = false;
    $('progress-label').textContent = S.loadingModel;
    $('progress-bar').removeAttribute('value');
    $('progress-text').textContent = '';
  }

  show({ loaded, total }, S) {
    const $ = this.#$;
    const bar = $('progress-bar');
    const mb = (n) => (n / 1e6).toFixed(1);
    if (total) {
      bar.max = total;
      bar.value = loaded;
      $('progress-text').textContent = `${mb(loaded)} / ${mb(total)} MB`;
    } else {
      bar.removeAttribute('value'); // indeterminate: the server did not say how much
      $('progress-text').textContent = `${mb(loaded)} MB`;
    }
    if (total && loaded >= total) $('progress-label').textContent = S.loadingEngine;
  }

  hide() {
    this.#$('progress').hidden = true;
  }
}
