// The optional client metadata (RFC 7591) that a registration and a client ID metadata document both accept, with
// the same limits: what the service keeps or shows of a client beyond its name and redirect URIs.
import { z } from "zod";
import { APPLICATION_TYPES } from "./redirect-uri-rules";

export const OPTIONAL_CLIENT_METADATA = {
  application_type: z.enum(APPLICATION_TYPES).optional(),
  grant_types: z.array(z.string().max(100)).max(10).optional(),
  response_types: z.array(z.string().max(100)).max(10).optional(),
  token_endpoint_auth_method: z.string().max(100).optional(),
  scope: z.string().max(1000).optional(),
  client_uri: z.string().max(2000).optional(),
  logo_uri: z.string().max(2000).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(200).optional(),
};
