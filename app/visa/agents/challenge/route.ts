// POST issues the challenge a visa agent key registration signs as its proof of possession (docs/cards.md "Agent keys").
import { issueKeyChallenge } from "@/lib/agent-identity/key-challenges";
import { api } from "@/lib/http/api";
import * as operation from "./operations";

export const POST = api(operation.POST, ({ tx, principal }) => issueKeyChallenge(tx, principal, "visa"));

export const dynamic = "force-dynamic";
