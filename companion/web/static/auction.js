// The auction's panel: the lot, the highest bid, who is still asked, and this phone's bid.

import { $ } from "./dom.js";
import { actor, money, spaceName } from "./state.js";

export function renderAuction(state) {
  const auction = state.auction, prompt = state.prompt;
  const open = !!auction && prompt && prompt.kind === "auction";
  $("auction-panel").hidden = !open;
  if (!open) return;
  const me = actor();
  const lot = auction.space ? spaceName(auction.space) : `a ${auction.building}`;
  $("auction-text").textContent = `${lot}: ${auction.bidder ? `${auction.bidder} bids ${money(auction.bid)}` : "no bid yet"}` +
    ` · waiting for ${(prompt.waiting || []).filter((n) => n !== auction.bidder).join(", ")}`;  // not the highest bidder
  const bidding = me && (prompt.waiting || []).includes(me);
  $("bid-form").hidden = !bidding;
  const amount = $("bid-amount");
  amount.min = Math.max(auction.bid + 1, auction.minimum || 1);
  if (Number(amount.value) < Number(amount.min)) amount.value = amount.min;
  bidLabel();
  $("pass-button").disabled = auction.bidder === me;
}

export const bidLabel = () => { $("bid-button").textContent = "Bid " + money(Number($("bid-amount").value) || 0); };
