// Time on the page: the table's time control in words, move deadlines as live countdowns.
//
// Deadlines come from the server as ISO-8601 times in UTC. The browser's clock may be off by
// minutes, so the page estimates the server's clock from the Date header of API answers
// (api.js reports each one here) and counts down against that.

// The paces a table can have (docs/decisions.md, *Pace*) and the clocks offered for each: a live game is played
// by people who are there now, a turn-based one over days (each gets a "your turn" when it is).
const PACES = [
  {
    pace: "live",
    label: "Live — everyone plays now",
    choices: [
      { seconds: null, label: "No time limit" },
      { seconds: 30, label: "30 s per move" },
      { seconds: 60, label: "1 min per move" },
      { seconds: 120, label: "2 min per move" },
      { seconds: 300, label: "5 min per move" },
    ],
    preset: 60,
  },
  {
    pace: "turn_based",
    label: "Turn-based — a move when you can, over days",
    choices: [
      { seconds: 86400, label: "1 day per move" },
      { seconds: 3 * 86400, label: "3 days per move" },
      { seconds: 7 * 86400, label: "7 days per move" },
      { seconds: null, label: "No time limit" },
    ],
    preset: 3 * 86400,
  },
];
const TIME_CONTROLS = PACES.flatMap((entry) => entry.choices);

/** The paces offered when creating a table: [{pace, label, choices: [{seconds, label}], preset}]. */
export function paceChoices() {
  return PACES.map((entry) => ({ ...entry, choices: entry.choices.map((choice) => ({ ...choice })) }));
}

/** "live" or "turn-based" for badges; null for an unknown pace. */
export function paceLabel(pace) {
  return { live: "live", turn_based: "turn-based" }[pace] || null;
}

/** The choices offered when creating a table: [{seconds, label}]. */
export function timeControlChoices() {
  return TIME_CONTROLS.filter((choice, index) => TIME_CONTROLS.findIndex((other) => other.seconds === choice.seconds) === index)
    .map((choice) => ({ ...choice }));
}

/** "1 min per move", "3 days per move", or null for no time control. */
export function describeTimeControl(seconds) {
  if (!seconds) return null;
  const known = TIME_CONTROLS.find((choice) => choice.seconds === seconds);
  if (known) return known.label;
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? "" : "s"} per move`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h per move`;
  if (seconds >= 60 && seconds % 60 === 0) return `${seconds / 60} min per move`;
  return `${seconds} s per move`;
}

/** A shorter form for badges: "1 min", "3 days". */
export function shortTimeControl(seconds) {
  const text = describeTimeControl(seconds);
  return text ? text.replace(/ per move$/, "") : null;
}

// -- the server's clock -------------------------------------------------------------------------

let offsetMs = 0; // server time minus browser time
const samples = [];

/** Note the Date header of a server answer received just now. */
export function noteServerDate(header) {
  if (!header) return;
  const stamp = Date.parse(header);
  if (Number.isNaN(stamp)) return;
  // The header is truncated to the second: the server's clock was somewhere in [stamp, stamp + 1 s).
  samples.push(stamp + 500 - Date.now());
  if (samples.length > 7) samples.shift();
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  // Within the header's resolution the browser's clock is as good as our estimate; keep it.
  offsetMs = Math.abs(median) > 1500 ? median : 0;
}

/** The server's "now" in milliseconds since the epoch, as well as we know it. */
export function serverNow() {
  return Date.now() + offsetMs;
}

/** Milliseconds since the epoch of a server time; a time without a zone is UTC. NaN if unreadable. */
export function parseServerTime(iso) {
  if (!iso) return NaN;
  const text = String(iso).trim();
  const zoned = /([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`;
  return Date.parse(zoned);
}

/** Time left until `deadline` (ISO), in ms, never negative; null when there is no deadline. */
export function remainingMs(deadline) {
  const due = parseServerTime(deadline);
  if (Number.isNaN(due)) return null;
  return Math.max(0, due - serverNow());
}

/** "0:42", "12:05", "3:04:05", "2 d 03 h" for a duration in ms. */
export function formatRemaining(ms) {
  const total = Math.ceil(Math.max(0, ms) / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const two = (n) => String(n).padStart(2, "0");
  if (days > 0) return `${days} d ${two(hours)} h`;
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago" for a server time (ISO); "" if unreadable. */
export function timeAgo(iso) {
  const at = parseServerTime(iso);
  if (Number.isNaN(at)) return "";
  const seconds = Math.max(0, Math.floor((serverNow() - at) / 1000));
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
