// A rail's decline reason in plain words for the payer (pure data). The reason may come from the pay
// form's redirect query, so only the table's own keys answer.
import { ownValue } from "../own-key";

const PLAIN_WORDS: Record<string, { title: string; detail: string }> = {
  insufficient_funds: {
    title: "Your card has insufficient funds.",
    detail: "Your bank reported that the card does not have enough funds for this payment.",
  },
  expired_card: { title: "Your card has expired.", detail: "Your bank reported that this card is no longer valid." },
  generic_decline: {
    title: "Your card was declined.",
    detail: "Your bank did not give a reason; contact your bank if this keeps happening.",
  },
};

export function declineInPlainWords(reason: string | null | undefined): { title: string; detail: string } {
  return ownValue(PLAIN_WORDS, reason) ?? { title: "Your card was declined.", detail: "Contact your bank if this keeps happening." };
}
