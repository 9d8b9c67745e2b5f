// The auction's panel: the lot, the highest bid, who is still asked, and this phone's bid: quick bids over the high
// bid in one tap, a box starting at the next sensible bid, and Pass; the highest bidder is told they lead, and why
// they cannot pass. Imported when an auction is first on (stream.js: auctionView).

import { t } from "./words.js";
import { act } from "./talk.js";
import { $, el, actor, app, money, player, spaceName, viewKey } from "./state.js";

// The quick bids over the high bid: the table's own list (/api/board's bid_steps), the same steps as the OLED's buttons.
const steps = () => (app.board && app.board.bid_steps) || [];

export function renderAuction(state) {
  const auction = state.auction, prompt = state.prompt;
  const open = !!auction && prompt && prompt.kind === "auction";
  $("auction-panel").hidden = !open;
  if (!open) return;
  const me = actor();
  const leading = !!me && auction.bidder === me;
  const lot = auction.space ? spaceName(auction.space) : t("a {building}", { building: t(auction.building) });
  const others = (prompt.waiting || []).filter((n) => n !== auction.bidder).join(", ");  // not the highest bidder
  const bid = auction.bidder ? t("{player} bids {amount}", { player: auction.bidder, amount: money(auction.bid) }) : t("no bid yet");
  $("auction-text").textContent = t("{lot}: {bid} · waiting for {players}", { lot, bid, players: others });
  $("auction-lead").hidden = !leading;
  $("auction-lead").replaceChildren(el("strong", {}, t("You lead at {amount}", { amount: money(auction.bid) })),
    el("span", { class: "where" }, " " + t("You cannot pass while you lead: the lot is yours once the others pass.")));
  const bidding = !!me && !leading && (prompt.waiting || []).includes(me);
  $("bid-form").hidden = !bidding;
  if (!bidding) return;
  const lowest = Math.max(auction.bid + 1, auction.minimum || 1);
  const cash = "cash" in player(me) ? player(me).cash : Infinity;
  const amounts = [...new Set(steps().map((step) => Math.max(lowest, auction.bid + step)))];
  const key = viewKey([auction.bid, lowest, cash, me]);
  const amount = $("bid-amount");
  amount.min = lowest;
  if ($("quick-bids").dataset.key !== key) {  // a new high bid: the quick bids and the box start over it
    $("quick-bids").dataset.key = key;
    $("quick-bids").replaceChildren(...amounts.map((sum) => el("button", { type: "button", "data-bid": sum, disabled: sum > cash,
      on: { click: () => act("bid", { amount: sum }) } }, t("Bid {amount} (+{more})", { amount: money(sum), more: money(sum - auction.bid) }))));
    amount.value = amounts[0] ?? lowest;
  }
  bidLabel();
  $("pass-button").disabled = false;
}

export const bidLabel = () => { $("bid-button").textContent = t("Bid {amount}", { amount: money(Number($("bid-amount").value) || 0) }); };
