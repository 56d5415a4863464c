// Work that waits until an element comes near the viewport (within margin of it): the
// widget's download, why.html's timing. ready() is called once, then, or at once where there
// is no IntersectionObserver.

export function whenNear(element, ready, margin = '200px') {
  if (typeof IntersectionObserver !== 'function') {
    ready();
    return;
  }
  const observer = new IntersectionObserver((entries) => {
    if (!entries.some((x) => x.isIntersecting)) return;
    observer.disconnect();
    ready();
  }, { rootMargin: margin });
  observer.observe(element);
}
