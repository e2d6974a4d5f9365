// The `secp256k1` package's native binding alone (libsecp256k1, prebuilt), as lib/x402/authorization-signature.ts
// loads it: the package ships no types, and its main entry would fall back to a pure-JS implementation silently.
declare module "secp256k1/bindings.js" {
  type Recover = (signature: Uint8Array, recoveryId: number, digest: Uint8Array, compressed: false) => Uint8Array;
  const binding: { ecdsaRecover?: Recover };
  export default binding;
  export const ecdsaRecover: Recover | undefined;
}
