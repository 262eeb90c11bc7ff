// Time on the page: the table's time control in words, move deadlines as live countdowns.
//
// Deadlines come from the server as ISO-8601 times in UTC. The browser's clock may be off by
// minutes, so the page estimates the server's clock from the Date header of API answers
// (api.js reports each one here) and counts down against that.

import { t, tn } from "./i18n.js";

// The paces a table can have (docs/decisions.md, *Pace*) and the clocks offered for each: a live game is played
// by people who are there now, a turn-based one over days (each gets a "your turn" when it is).
// Built when asked (labels in the reader's language, its catalog loaded by then).
function paces() {
  return [
    {
      pace: "live",
      label: t("Live — everyone plays now"),
      choices: [
        { seconds: null, label: t("No time limit") },
        { seconds: 30, label: t("30 s per move") },
        { seconds: 60, label: t("1 min per move") },
        { seconds: 120, label: t("2 min per move") },
        { seconds: 300, label: t("5 min per move") },
      ],
      preset: 60,
    },
    {
      pace: "turn_based",
      label: t("Turn-based — a move when you can, over days"),
      choices: [
        { seconds: 86400, label: t("1 day per move") },
        { seconds: 3 * 86400, label: t("3 days per move") },
        { seconds: 7 * 86400, label: t("7 days per move") },
        { seconds: null, label: t("No time limit") },
      ],
      preset: 3 * 86400,
    },
  ];
}
const timeControls = () => paces().flatMap((entry) => entry.choices);

/** The paces offered when creating a table: [{pace, label, choices: [{seconds, label}], preset}]. */
export function paceChoices() {
  return paces();
}

/** "live" or "turn-based" for badges; null for an unknown pace. */
export function paceLabel(pace) {
  return { live: t("live"), turn_based: t("turn-based") }[pace] || null;
}

/** The choices offered when creating a table: [{seconds, label}]. */
export function timeControlChoices() {
  const all = timeControls();
  return all.filter((choice, index) => all.findIndex((other) => other.seconds === choice.seconds) === index)
    .map((choice) => ({ ...choice }));
}

/** "1 min per move", "3 days per move", or null for no time control. */
export function describeTimeControl(seconds) {
  if (!seconds) return null;
  const known = timeControls().find((choice) => choice.seconds === seconds);
  if (known) return known.label;
  if (seconds % 86400 === 0) return tn("{n} day per move", "{n} days per move", seconds / 86400, { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t("{n} h per move", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("{n} min per move", { n: seconds / 60 });
  return t("{n} s per move", { n: seconds });
}

/** A shorter form for badges: "1 min", "3 days". */
export function shortTimeControl(seconds) {
  if (!seconds) return null;
  if (seconds % 86400 === 0) return tn("{n} day", "{n} days", seconds / 86400, { n: seconds / 86400 });
  if (seconds % 3600 === 0) return t("{n} h", { n: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t("{n} min", { n: seconds / 60 });
  return t("{n} s", { n: seconds });
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
  if (days > 0) return t("{days} d {hours} h", { days, hours: two(hours) });
  if (hours > 0) return `${hours}:${two(minutes)}:${two(seconds)}`;
  return `${minutes}:${two(seconds)}`;
}

/** "just now", "5 min ago", "3 h ago", "2 days ago" for a server time (ISO); "" if unreadable. */
export function timeAgo(iso) {
  const at = parseServerTime(iso);
  if (Number.isNaN(at)) return "";
  const seconds = Math.max(0, Math.floor((serverNow() - at) / 1000));
  if (seconds < 60) return t("just now");
  if (seconds < 3600) return t("{n} min ago", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("{n} h ago", { n: Math.floor(seconds / 3600) });
  const days = Math.floor(seconds / 86400);
  return tn("{n} day ago", "{n} days ago", days, { n: days });
}
