// Ownership of the C++ objects JS holds (Embind's Translator and Decoder). Embind frees them
// only on an explicit .delete(); everything here goes through own()/release(), which also
// counts live objects per module instance so leak tests can watch them.
//
// A finalizer is the safety net for an owner dropped without dispose() (a page that abandons
// a steps() iterator half way): when the JS owner is collected, its C++ object is freed too.

const live = new WeakMap(); // module -> number of live C++ objects

const finalizer =
  typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((rec) => release(rec)) : null;

// Takes ownership of handle (a fresh Embind object) on behalf of the JS object owner.
export function own(module, handle, owner) {
  const rec = { module, handle, released: false };
  live.set(module, liveObjects(module) + 1);
  finalizer?.register(owner, rec, rec);
  return rec;
}

export function release(rec) {
  if (rec.released) return;
  rec.released = true;
  finalizer?.unregister(rec);
  rec.handle.delete();
  live.set(rec.module, liveObjects(rec.module) - 1);
}

export function liveObjects(module) {
  return live.get(module) ?? 0;
}
