"use client";
// An owner's form for a live network's payout address (Settings, live mode): the network, the address, Save.
// The service checks the address (checksum, not the zero address) and mails every owner of the change.
import { useState } from "react";
import { useDashboardMutation } from "@/components/dashboard/useDashboardMutation";
import { Button } from "../Button";
import { SelectField } from "../SelectField";
import { TextField } from "../TextField";

export function PayoutAddressForm({ networks }: { networks: string[] }) {
  const [network, setNetwork] = useState(networks[0] ?? "");
  const [address, setAddress] = useState("");
  const save = useDashboardMutation<{ network: string; address: string }>({
    path: "/api/dashboard/x402/payout-addresses",
    success: "Payout address saved. Every owner has been mailed.",
    toastErrors: false,
    onSuccess: () => setAddress(""),
  });
  const errors = save.error?.fieldErrors ?? {};
  return (
    <form
      className="mt-4 flex max-w-xl flex-col gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ network, address: address.trim() });
      }}
    >
      <SelectField label="Network" value={network} onChange={setNetwork} options={networks} mono />
      <TextField
        label="Payout address"
        value={address}
        onChange={setAddress}
        placeholder="0x…"
        hint="Your own wallet on this network: live x402 payments are paid straight to it. It replaces the current one."
        error={errors.address ?? errors.network}
        spellCheck={false}
        autoComplete="off"
        required
      />
      {save.error && !Object.keys(errors).length ? (
        <p role="alert" className="text-sm text-red-700">
          {save.error.message}
        </p>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          Save payout address
        </Button>
      </div>
    </form>
  );
}
