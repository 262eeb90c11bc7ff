// Keeps the game board inside the window (no scrolling the board at 1280 x 800 or on a
// phone). The renderers mark their board with the class `game-board`; after every redraw and
// resize this sets --board-max-h (read by the boards' CSS) to the room between the board's top,
// as the page lies when scrolled to the top, and the window's bottom, so the banner, the prompt
// and the board show together. It never goes below 60% of the window, where the board would
// get too small: the page then scrolls once and the board still fits whole.

const root = document.documentElement;
let pending = false;

function fit() {
  pending = false;
  const board = document.querySelector("#board .game-board");
  if (!board) return;
  const top = board.getBoundingClientRect().top + window.scrollY;
  const room = Math.max(window.innerHeight * 0.6, window.innerHeight - top - 12);
  const value = `${Math.floor(room)}px`;
  if (root.style.getPropertyValue("--board-max-h") !== value) root.style.setProperty("--board-max-h", value);
}

function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(fit);
}

window.addEventListener("resize", schedule);
document.addEventListener("DOMContentLoaded", () => {
  const container = document.getElementById("board");
  if (container) new MutationObserver(schedule).observe(container, { childList: true, subtree: true });
  schedule();
});
