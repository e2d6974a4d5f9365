// What each network's agent signature must carry (docs/cards.md "Profiles"). Visa TAP: tags
// `agent-browser-auth` (reads) and `agent-payer-auth` (payments), covering @authority and @path; VIC credential
// requests use `credential-request`. Mastercard Agent Pay: Web Bot Auth, tag `web-bot-auth`, a Signature-Agent
// that is itself covered; paying and code requests also cover @method and @path.
export type Network = "visa" | "mastercard";

/** What the signed request does: it decides the tag the signature must carry. */
export type Operation = "browse" | "pay" | "credential" | "verify";

export interface Profile {
  network: Network;
  protocol: "tap" | "web-bot-auth";
  /** Every tag this profile knows (a signature with another tag is not one of this network's). */
  tags: readonly string[];
  /** The tags allowed for an operation. */
  tagsFor: Record<Operation, readonly string[]>;
  /** Covered components every signature of the operation must include. */
  components: Record<Operation, readonly string[]>;
  /** Signature-Agent present and covered. */
  signatureAgent: boolean;
}

export const MAX_WINDOW_SECONDS = 480;
/** How far in the future `created` may be (clocks differ a little). */
export const CLOCK_SKEW_SECONDS = 5;
export const REQUIRED_PARAMS = ["created", "expires", "keyid", "nonce"] as const;

export const PROFILES: Record<Network, Profile> = {
  visa: {
    network: "visa",
    protocol: "tap",
    tags: ["agent-browser-auth", "agent-payer-auth", "credential-request"],
    tagsFor: {
      browse: ["agent-browser-auth"],
      pay: ["agent-payer-auth"],
      credential: ["credential-request"],
      verify: ["agent-browser-auth", "agent-payer-auth"],
    },
    components: {
      browse: ["@authority", "@path"],
      pay: ["@authority", "@path"],
      credential: ["@authority", "@path"],
      verify: ["@authority", "@path"],
    },
    signatureAgent: false,
  },
  mastercard: {
    network: "mastercard",
    protocol: "web-bot-auth",
    tags: ["web-bot-auth"],
    tagsFor: { browse: ["web-bot-auth"], pay: ["web-bot-auth"], credential: ["web-bot-auth"], verify: ["web-bot-auth"] },
    components: {
      browse: ["@authority", "signature-agent"],
      pay: ["@authority", "signature-agent", "@method", "@path"],
      credential: ["@authority", "signature-agent", "@method", "@path"],
      verify: ["@authority", "signature-agent"],
    },
    signatureAgent: true,
  },
};
