// The SDK's MPP entry: the `service` payment method for mppx clients and servers (mpp-method.ts). A separate
// entry because it needs mppx, an optional peer dependency; the rest of the SDK (index.ts) needs nothing.
export { MPP_INTENT, MPP_METHOD_NAME, mintTokenFor, service, serviceClientMethod, serviceServerMethod } from "./mpp-method";
export type {
  MintTokenForOptions,
  MppApprovalPendingDetails,
  MppVerification,
  ServiceChallenge,
  ServiceChargeRequest,
  ServiceClientMethodOptions,
  ServiceMethod,
  ServiceServerMethodOptions,
} from "./mpp-method";
