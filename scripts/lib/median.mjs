// The median of a list of numbers (the mean of the middle two for an even count): what every
// table of scripts/bench reports, so that one slow round on a shared machine moves nothing.
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
