import type { z } from 'zod';
import type { planningJobSchema } from '../contract/planning.js';
import type { JobRecord } from './ports.js';

/** The planning job object of section 2.2, as the API returns it and the event carries it: the
 *  contract's one schema of it (src/contract/planning.ts). `result` is `{}` until done and on failure. */
export type JobView = z.output<typeof planningJobSchema>;

export function toJobView(job: JobRecord): JobView {
  return {
    job_id: job.id,
    status: job.status,
    input: { order_ids: [...job.input.order_ids], vehicle_ids: [...job.input.vehicle_ids], warehouse_id: job.input.warehouse_id },
    result: job.status === 'done' && job.result ? structuredClone(job.result) : {},
    error: job.error,
    created_at: job.createdAt,
    updated_at: job.updatedAt,
  };
}
