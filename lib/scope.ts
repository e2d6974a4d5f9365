// What a caller may see: one merchant, one mode. Every domain query filters by both, so another
// merchant's object, or one of the other mode, is simply not found (404, never 403).
export interface Scope {
  merchantId: string;
  livemode: boolean;
}
