// The request header proxy.ts sets on dashboard pages: the path and query the browser asked for.
export const REQUESTED_PATH_HEADER = "x-aps-requested-path";
