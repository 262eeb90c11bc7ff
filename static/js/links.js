// Page addresses: the game page of a table and the link to share for it.

/** The game page of a table; a private table's page carries its invite code. */
export function tablePath(tableId, inviteCode) {
  const path = `/tables/${encodeURIComponent(tableId)}`;
  return inviteCode ? `${path}?invite=${encodeURIComponent(inviteCode)}` : path;
}

/** The full link to send to a friend. */
export function inviteLink(tableId, inviteCode) {
  return new URL(tablePath(tableId, inviteCode), window.location.origin).href;
}

/** The profile page of a player (an account). */
export function playerPath(accountId) {
  return `/players/${encodeURIComponent(accountId)}`;
}
