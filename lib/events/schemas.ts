import { z } from "zod";
import { ListQuery } from "../validation/common";
import { EVENT_TYPES } from "./types";

export const ListEventsQuery = ListQuery.extend({ type: z.enum(EVENT_TYPES).optional() }).strict();
export type ListEventsInput = z.output<typeof ListEventsQuery>;
