// The card-network agent that paid a PaymentIntent (docs/cards.md "The agent on the PaymentIntent"): network and
// protocol, whether its signature was verified, its agent key and the credential it paid with.
import type { AgentRecord } from "@/lib/payments/serialize";

export function AgentSummary({ agent }: { agent: AgentRecord }) {
  const network = agent.network === "visa" ? "Visa" : "Mastercard";
  const protocol = agent.protocol === "tap" ? "Trusted Agent Protocol" : agent.protocol === "web-bot-auth" ? "Web Bot Auth" : "card form";
  return (
    <span data-testid="payment-agent" className="flex flex-col gap-1">
      <span className="flex flex-wrap items-center gap-2">
        <span>
          {network} · {protocol}
        </span>
        <span
          className={`rounded px-1.5 py-0.5 text-xs font-medium ${agent.verified ? "bg-emerald-50 text-emerald-800" : "bg-amber-50 text-amber-800"}`}
          data-testid="payment-agent-verified"
        >
          {agent.verified ? "Verified agent" : "Not verified"}
        </span>
      </span>
      {agent.agentKeyId ? <span className="font-mono text-xs text-gray-700">agent key {agent.agentKeyId}</span> : null}
      {agent.keyid ? <span className="font-mono text-xs text-gray-700 break-all">keyid {agent.keyid}</span> : null}
      <span className="font-mono text-xs text-gray-700">credential {agent.credentialId}</span>
    </span>
  );
}
