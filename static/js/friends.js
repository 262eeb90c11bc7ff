// Friends (docs/playing.md, "Friends"): the lobby's Friends card (who is online, their running
// games, invitations to join), the profile's Follow and Block buttons, and "Invite a friend" in a
// table's waiting room.

import { api } from "./api.js";
import { h, replaceChildren, showMessage, whileBusy } from "./dom.js";
import { withdrawn } from "./invitations.js";
import { playerPath, tablePath } from "./links.js";
import { t, tn } from "./i18n.js";
import { termsText } from "./options-form.js";
import { fill, gameWord, keep } from "./words.js";

const REFRESH_MS = 15000;

/** GET /api/friends: {friends, invitations, blocked}. */
export function loadFriends() {
  return api("GET", "/api/friends");
}

/**
 * The lobby's Friends card in ``section``: redrawn every 15 s while the tab is visible; hidden when
 * nobody is signed in. Returns {refresh(account)} to call when the account changes.
 */
export function mountFriendsCard(section) {
  const list = section.querySelector("[data-friends]");
  const invitations = section.querySelector("[data-invitations]");
  const message = section.querySelector("[data-friends-message]");
  let signedIn = null;

  async function refresh() {
    section.hidden = !signedIn;
    if (!signedIn || document.hidden) return;
    try {
      const data = await loadFriends();
      showMessage(message, "");
      replaceChildren(invitations, data.invitations.map(invitationItem));
      replaceChildren(
        list,
        data.friends.length ? data.friends.map(friendItem) : h("li", { class: "empty muted" }, t("Follow players from their profile to see them here.")),
      );
    } catch (error) {
      if (error.status !== 401) showMessage(message, t("Could not load your friends: {reason}", { reason: error.message }));
    }
  }

  function invitationItem(invitation) {
    const decline = h("button", { type: "button", class: "link-button", "data-decline": String(invitation.id) }, t("Decline"));
    decline.addEventListener("click", async () => {
      try {
        await whileBusy(decline, () => api("DELETE", `/api/invitations/${invitation.id}`), t("Declining…"));
      } catch (error) {
        showMessage(message, error.message);
      }
      refresh();
    });
    // Join takes the seat in one click (the invitation's code opens a private table), then opens the table.
    const join = h("button", { type: "button", class: "primary", "data-accept": "" }, invitation.rematch ? t("Accept") : t("Join"));
    join.addEventListener("click", async () => {
      try {
        await whileBusy(join, () => api("POST", `/api/tables/${encodeURIComponent(invitation.table_id)}/join`, invitation.invite_code ? { invite_code: invitation.invite_code } : {}), t("Joining…"));
        window.location.assign(tablePath(invitation.table_id, invitation.invite_code));
      } catch (error) {
        if (await withdrawn(invitation.id)) { // the card is polled: the invitation may have ended since
          await refresh();
          showMessage(message, t("This invitation was withdrawn."), "info");
          return;
        }
        showMessage(message, error.message);
      }
    });
    return h(
      "li",
      { class: "invitation", "data-invitation-table": String(invitation.table_id) },
      fill(
        invitation.rematch
          ? t("{who} offers a rematch of {game}: {terms}", { who: "{who}", game: gameWord(invitation.ruleset, invitation.title), terms: "{terms}" })
          : t("{who} invites you to {game}: {terms}", { who: "{who}", game: gameWord(invitation.ruleset, invitation.title), terms: "{terms}" }),
        {
          who: h("a", { href: playerPath(invitation.from.id) }, invitation.from.name),
          terms: h("span", { class: "muted", "data-invitation-terms": "" }, invitation.table ? termsText(invitation.table)
            : invitation.terms || tn("{n} free seat", "{n} free seats", invitation.free_seats)),
        },
      ),
      " ",
      join,
      " ",
      decline,
    );
  }

  function friendItem(friend) {
    return h(
      "li",
      { class: "friend", "data-friend": String(friend.id), "data-online": String(friend.online) },
      h("span", { class: `presence ${friend.online ? "presence-online" : "presence-offline"}`, role: "img", "aria-label": friend.online ? t("online") : t("offline"), title: friend.online ? t("Has a game open now") : t("Not at a game right now") }, ""),
      " ",
      h("a", { href: playerPath(friend.id) }, friend.name),
      friend.games.length
        ? h("span", { class: "muted" }, " · ", fill(t("playing {games}", keep("games")), {
          games: friend.games.map((game, index) => [index ? ", " : "", h("a", { href: tablePath(game.id), "data-friend-game": String(game.id) }, `${gameWord(game.ruleset, game.title)} #${game.id}`)]),
        }))
        : null,
    );
  }

  setInterval(refresh, REFRESH_MS);
  document.addEventListener("visibilitychange", refresh);
  return {
    refresh(account) {
      signedIn = account;
      refresh();
    },
  };
}

/** Follow / Unfollow and Block / Unblock buttons for a profile (``relation``: {following, blocked}). */
export function relationButtons(playerId, relation, onChange) {
  const path = `/api/players/${encodeURIComponent(playerId)}`;
  const follow = h("button", { type: "button", id: "follow-player", disabled: relation.blocked }, relation.following ? t("Unfollow") : t("Follow"));
  const block = h("button", { type: "button", id: "block-player", class: "link-button" }, relation.blocked ? t("Unblock") : t("Block"));
  const message = h("p", { class: "message", role: "alert", hidden: true });
  follow.addEventListener("click", () => act(follow, `${path}/follow`, relation.following));
  block.addEventListener("click", () => act(block, `${path}/block`, relation.blocked));

  async function act(button, url, undo) {
    try {
      onChange(await whileBusy(button, () => api(undo ? "DELETE" : "POST", url), "…"));
    } catch (error) {
      showMessage(message, error.message);
    }
  }
  return h("div", { class: "relation-actions actions" }, follow, " ", block, message);
}

/** "Invite a friend" for an open table's waiting room: a choice of friends not seated there, and a button. */
export async function inviteControl(tableId, seatedIds) {
  const data = await loadFriends();
  const candidates = data.friends.filter((friend) => !seatedIds.includes(friend.id));
  if (!candidates.length) return null;
  const select = h("select", { id: "invite-friend", "aria-label": t("Friend to invite") }, candidates.map((friend) => h("option", { value: String(friend.id) }, friend.online ? t("{name} (online)", { name: friend.name }) : friend.name)));
  const button = h("button", { type: "button", id: "invite-friend-button" }, t("Invite"));
  const message = h("p", { class: "message", role: "status", hidden: true });
  button.addEventListener("click", async () => {
    try {
      const sent = await whileBusy(button, () => api("POST", `/api/tables/${encodeURIComponent(tableId)}/invitations`, { account_id: Number(select.value) }), t("Inviting…"));
      showMessage(message, t("{name} is invited: they see it in their lobby.", { name: sent.invitee.name }), "info");
    } catch (error) {
      showMessage(message, error.message);
    }
  });
  return h("div", { class: "invite-friend" }, h("label", { for: "invite-friend" }, `${t("Invite a friend")} `), select, " ", button, message);
}
