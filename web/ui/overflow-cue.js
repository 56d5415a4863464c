// A visible cue for content that scrolls sideways: on a phone a long sentence's matrix or
// alignment lines are wider than the screen, and nothing said so. The scroller gets
// data-overflow "left", "right" or "left right" (the sides with more to see), which the CSS
// draws as a fade at that edge; it follows scrolling and resizing.
export function watchOverflow(scroller) {
  const update = () => {
    const more = [];
    if (scroller.scrollLeft > 1) more.push('left');
    if (scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1) more.push('right');
    const value = more.join(' ');
    if (scroller.dataset.overflow !== value) scroller.dataset.overflow = value;
  };
  scroller.addEventListener('scroll', update, { passive: true });
  if (typeof ResizeObserver === 'function') {
    const ro = new ResizeObserver(update);
    ro.observe(scroller);
    if (scroller.firstElementChild) ro.observe(scroller.firstElementChild);
  }
  update();
  return update; // call after replacing the content
}
