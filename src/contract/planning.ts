import { z } from 'zod';

/** The body of POST /planning/jobs/ (section 4.6). The HTTP layer parses with it; the job service
 *  accepts the parsed value. */
export const planningRequestSchema = z.object({
  order_ids: z.array(z.number().int().positive()).optional(),
  external_ids: z.array(z.string().min(1).max(128)).optional(),
  vehicle_ids: z.array(z.number().int().positive()).optional(),
  warehouse_id: z.number().int().positive().nullable().optional(),
});

export type PlanningRequest = z.infer<typeof planningRequestSchema>;
