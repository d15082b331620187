/**
 * GENERATED from docs/openapi.json by `npm run openapi` (openapi-typescript): do not edit.
 * test/http/openapi-document.test.ts fails when this file and the document disagree.
 */

export interface paths {
    "/api/public/v1/orders/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List orders, newest first */
        get: operations["listOrders"];
        put?: never;
        /**
         * Create one order
         * @description Geocoding runs after the answer. With the external_id of an existing order, that order is returned (200) and the data sent is discarded.
         */
        post: operations["createOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/orders/bulk/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create 1 to 500 orders
         * @description A bare JSON array. Each order is validated on its own; one invalid order does not stop the others (its item has status error).
         */
        post: operations["bulkCreateOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/orders/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        /** One order (an addition to the contract) */
        get: operations["getOrder"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an order in status new
         * @description Checked in this order: 404, the body on its own (400), the status (409), then lat/lon and the time window against the stored values (400).
         */
        patch: operations["updateOrder"];
        trace?: never;
    };
    "/api/public/v1/orders/{id}/cancel/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel an order in status new (it becomes archived)
         * @description No body is needed; one sent is ignored (but must be JSON).
         */
        post: operations["cancelOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/orders/{id}/events/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        /** Status history of an order, oldest first */
        get: operations["getOrderEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/planning/jobs/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a planning job
         * @description Validation is all-or-nothing: an unknown reference creates no job (400 with the 7.5 detail text). Keep job_id: there is no list of jobs.
         */
        post: operations["startPlanningJob"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/planning/jobs/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        /** A planning job */
        get: operations["getPlanningJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/routes/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List routes, newest first */
        get: operations["listRoutes"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/routes/{id}/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        /** A route with its stops */
        get: operations["getRoute"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/routes/{id}/tracking/": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        /**
         * Tracking snapshot of a route
         * @description Poll at most once every 30 seconds: the data does not change more often, and every poll counts against the request limit.
         */
        get: operations["getRouteTracking"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/routes/{id}/vehicle": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Assign a vehicle to a route
         * @description The route must be planned or active; the vehicle active and not assigned to another route of that date.
         */
        post: operations["assignRouteVehicle"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/routes/{id}/start": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Start a route (planned -> active) */
        post: operations["startRoute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/stops/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stop id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a stop's status
         * @description The order of an order stop follows (visited, confirmed, rejected, skipped), with a history entry and an order.status_changed event. The status a stop already has is a no-op 200.
         */
        post: operations["setStopStatus"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/vehicles/{id}/positions": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Vehicle id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send vehicle positions (feeds tracking) */
        post: operations["addVehiclePositions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/planning/replan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-plan a day in progress
         * @description A job over the date's planned and active routes and the new orders: fixed stops (in_progress, visited, confirmed, rejected, skipped) stay with their times, pending stops may move between routes but are never dropped, kept stops keep their ids. A stop status written while it runs wins: the job computes again or fails with a readable error. Read it at the public planning job endpoint.
         */
        post: operations["replanDay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/vehicles/{id}/unavailable": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Vehicle id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take a vehicle out for the rest of its day
         * @description A re-plan job moving the vehicle's pending stops (planned from `from` on) to the date's other routes; an order that fits nowhere goes back to new and is in the job's unassigned.
         */
        post: operations["markVehicleUnavailable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/planning/quote": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Where and when one more order would go
         * @description The cheapest feasible place for the order on the date's planned and active routes as they are now, changing nothing (no job).
         */
        post: operations["quoteOrder"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/internal/v1/vehicles/": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The company's vehicles, each with its route on a date
         * @description Every vehicle, active or not, by id; route_id and route_status name its route on the date (not cancelled), null without one. The id is what the dispatch API takes (a van out of service, its positions).
         */
        get: operations["listFleet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/public/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI document
         * @description No key needed, and not counted against the request limit. A page showing it: /api/public/v1/docs.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An error of a general kind: `{"detail": text}` */
        Detail: {
            detail: string;
        };
        /** @description Validation errors: field name (or query parameter) -> messages */
        FieldErrors: {
            [key: string]: string[];
        };
        /** @description A body of the wrong shape: `detail` sums up every problem, and each field names its own messages */
        DetailAndFieldErrors: {
            detail: string;
        } & {
            [key: string]: string[];
        };
        /** @description A new order (contract 2.1); only address is required */
        OrderInput: {
            name?: string;
            recipient?: string;
            phone?: string;
            address: string;
            lat?: (number | string) | null;
            lon?: (number | string) | null;
            time_window_start?: string | null;
            time_window_end?: string | null;
            /** @description kg */
            weight?: number | string;
            /** @description cubic metres */
            volume?: number | string;
            /** @description minutes */
            service_time?: number | string;
            notes?: string;
            /** @enum {string} */
            order_type?: "one_time" | "recurring";
            /** @description YYYY-MM-DD */
            delivery_date?: string;
            external_id?: string | null;
        };
        /** @description Any of the changeable fields; id, external_id, status, created_at and updated_at are read-only (400) */
        OrderPatch: {
            name?: string;
            recipient?: string;
            phone?: string;
            address?: string;
            lat?: (number | string) | null;
            lon?: (number | string) | null;
            time_window_start?: string | null;
            time_window_end?: string | null;
            /** @description kg */
            weight?: number | string;
            /** @description cubic metres */
            volume?: number | string;
            /** @description minutes */
            service_time?: number | string;
            notes?: string;
            /** @enum {string} */
            order_type?: "one_time" | "recurring";
            /** @description YYYY-MM-DD */
            delivery_date?: string;
        };
        /** @description An order (contract 2.1); lat and lon are null until geocoding has found the address */
        Order: {
            id: number;
            /** @description the client's document number */
            external_id: string | null;
            name: string;
            recipient: string;
            phone: string;
            address: string;
            /** @description latitude: a decimal string with 6 decimals */
            lat: string | null;
            /** @description longitude: a decimal string with 6 decimals */
            lon: string | null;
            /** @description HH:MM:SS, local to the company timezone */
            time_window_start: string | null;
            /** @description HH:MM:SS, local to the company timezone */
            time_window_end: string | null;
            /** @description kg: a decimal string with 3 decimals */
            weight: string;
            /** @description cubic metres: a decimal string with 3 decimals */
            volume: string;
            /** @description minutes at the stop */
            service_time: number;
            notes: string;
            /** @enum {string} */
            order_type: "one_time" | "recurring";
            /** @enum {string} */
            status: "new" | "in_route" | "visited" | "confirmed" | "rejected" | "skipped" | "archived";
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            delivery_date: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            updated_at: string;
        };
        /** @description A page of orders, newest first */
        OrderPage: {
            /** @description all matching items */
            count: number;
            /**
             * Format: uri-reference
             * @description link to the next page (relative, or absolute from serve --public-url), null on the last
             */
            next: string | null;
            /**
             * Format: uri-reference
             * @description link to the previous page (relative, or absolute from serve --public-url), null on the first
             */
            previous: string | null;
            results: components["schemas"]["Order"][];
        };
        BulkItemResult: {
            /** @description position in the request array */
            index: number;
            /** @description echo */
            external_id: string | null;
            /** @enum {string} */
            status: "created" | "exists" | "error";
            /** @description null on error */
            id: number | null;
            /** @description null unless status is error */
            errors: components["schemas"]["FieldErrors"] | Record<string, never> | null;
        };
        BulkResult: {
            results: components["schemas"]["BulkItemResult"][];
            summary: {
                created: number;
                existing: number;
                failed: number;
            };
        };
        /** @description Status history, oldest first (contract 2.6) */
        OrderHistory: {
            order_id: number;
            external_id: string | null;
            /** @enum {string} */
            current_status: "new" | "in_route" | "visited" | "confirmed" | "rejected" | "skipped" | "archived";
            events: {
                /** @enum {string} */
                status: "new" | "in_route" | "visited" | "confirmed" | "rejected" | "skipped" | "archived";
                /**
                 * @description null for the first entry
                 * @enum {string|null}
                 */
                previous_status: "new" | "in_route" | "visited" | "confirmed" | "rejected" | "skipped" | "archived" | null;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with a trailing Z
                 */
                at: string;
            }[];
        };
        /** @description At least one of order_ids and external_ids (their union is planned; at most 500 orders). null is the same as a field not sent. */
        PlanningJobRequest: {
            order_ids?: number[] | null;
            external_ids?: string[] | null;
            /** @description exactly one pins the route to it; two or more are ignored */
            vehicle_ids?: number[] | null;
            /** @description departure warehouse; without it each vehicle uses its own */
            warehouse_id?: number | null;
        };
        /** @description The result of a job in status done */
        PlanningJobResult: {
            route_ids: number[];
            summary: {
                route_count: number;
                unassigned_count: number;
            };
            unassigned: {
                order_id: number;
                /** @enum {string} */
                reason: "capacity" | "time_window" | "max_distance" | "max_duration" | "max_orders" | "requirements" | "no_vehicle" | "unroutable";
            }[];
        };
        /** @description A planning job (contract 2.2) */
        PlanningJob: {
            job_id: number;
            /** @enum {string} */
            status: "queued" | "running" | "done" | "failed";
            /** @description The effective input: resolved order ids */
            input: {
                order_ids: number[];
                vehicle_ids: number[];
                warehouse_id: number | null;
            };
            /** @description `{}` until done and on failure */
            result: components["schemas"]["PlanningJobResult"] | Record<string, never>;
            /** @description a human-readable sentence on failure, else ""; not a code */
            error: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            created_at: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            updated_at: string;
        };
        /** @description A route as listed (contract 2.3) */
        RouteListItem: {
            id: number;
            /** @description "YYYY-MM-DD <vehicle name>" */
            name: string;
            /** @enum {string} */
            status: "planned" | "active" | "completed" | "archived" | "cancelled";
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            /** @description true once a vehicle is assigned (dispatch API) */
            has_vehicle: boolean;
            /** @description km: a decimal string with 2 decimals */
            planned_mileage_km: string;
            planned_duration_min: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_start_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_end_at: string | null;
            /** @description kg: a decimal string with 3 decimals */
            total_weight_kg: string;
            /** @description cubic metres: a decimal string with 3 decimals */
            total_volume_m3: string;
        };
        /** @description A page of routes, newest first */
        RoutePage: {
            /** @description all matching items */
            count: number;
            /**
             * Format: uri-reference
             * @description link to the next page (relative, or absolute from serve --public-url), null on the last
             */
            next: string | null;
            /**
             * Format: uri-reference
             * @description link to the previous page (relative, or absolute from serve --public-url), null on the first
             */
            previous: string | null;
            results: components["schemas"]["RouteListItem"][];
        };
        /** @description A route stop (contract 2.4) */
        Stop: {
            id: number;
            /** @description order of the stop in the route, from 1 */
            position: number;
            /** @enum {string} */
            stop_type: "order" | "start_depot" | "mid_depot" | "end_depot";
            /** @enum {string} */
            status: "pending" | "in_progress" | "visited" | "confirmed" | "rejected" | "skipped";
            /** @description null on depot stops */
            order_id: number | null;
            /** @description the order's external_id; null on depot stops */
            order_external_id: string | null;
            address: string;
            /** @description latitude: a decimal string with 6 decimals */
            lat: string;
            /** @description longitude: a decimal string with 6 decimals */
            lon: string;
            /**
             * Format: date-time
             * @description equal to planned_arrival_at
             */
            eta: string | null;
            /**
             * Format: date-time
             * @description planned start of service (inside the time window)
             */
            planned_arrival_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            planned_departure_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_arrival_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_departure_at: string | null;
        };
        /** @description A route with its stops in order */
        Route: {
            id: number;
            /** @description "YYYY-MM-DD <vehicle name>" */
            name: string;
            /** @enum {string} */
            status: "planned" | "active" | "completed" | "archived" | "cancelled";
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
            /** @description true once a vehicle is assigned (dispatch API) */
            has_vehicle: boolean;
            /** @description km: a decimal string with 2 decimals */
            planned_mileage_km: string;
            planned_duration_min: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_start_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_end_at: string | null;
            /** @description kg: a decimal string with 3 decimals */
            total_weight_kg: string;
            /** @description cubic metres: a decimal string with 3 decimals */
            total_volume_m3: string;
            stops: components["schemas"]["Stop"][];
            /** @description the driver's planned breaks (empty when the route's vehicle has none) */
            breaks: {
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with a trailing Z
                 */
                start: string;
                /**
                 * Format: date-time
                 * @description ISO 8601 UTC with a trailing Z
                 */
                end: string;
            }[];
        };
        /** @description Tracking snapshot (contract 2.5): plain JSON numbers */
        Tracking: {
            route_id: number;
            /** @enum {string} */
            status: "planned" | "active" | "completed" | "archived" | "cancelled";
            /** @description order stops only; completed = confirmed, rejected or skipped */
            progress: {
                total: number;
                completed: number;
                remaining: number;
            };
            /** @description null without an assigned vehicle or before it sent a position */
            last_position: components["schemas"]["TrackingPosition"] | null;
        };
        TrackingPosition: {
            lat: number;
            lon: number;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            timestamp: string;
            speed_kmh: number;
            heading_deg: number;
        };
        /** @description The vehicle that drives the route */
        AssignVehicleRequest: {
            vehicle_id: number;
        };
        /** @description Optional body */
        StartRouteRequest: {
            /** @description ISO 8601 with a zone; default now */
            at?: string | null;
        };
        /** @description A stop's new status, as the driver's app reports it */
        StopStatusRequest: {
            /** @enum {string} */
            status: "in_progress" | "visited" | "confirmed" | "rejected" | "skipped";
            /** @description ISO 8601 with a zone; default now */
            at?: string | null;
        };
        /** @description The stop after the change, with its route */
        StopStatusResult: {
            id: number;
            /** @description order of the stop in the route, from 1 */
            position: number;
            /** @enum {string} */
            stop_type: "order" | "start_depot" | "mid_depot" | "end_depot";
            /** @enum {string} */
            status: "pending" | "in_progress" | "visited" | "confirmed" | "rejected" | "skipped";
            /** @description null on depot stops */
            order_id: number | null;
            /** @description the order's external_id; null on depot stops */
            order_external_id: string | null;
            address: string;
            /** @description latitude: a decimal string with 6 decimals */
            lat: string;
            /** @description longitude: a decimal string with 6 decimals */
            lon: string;
            /**
             * Format: date-time
             * @description equal to planned_arrival_at
             */
            eta: string | null;
            /**
             * Format: date-time
             * @description planned start of service (inside the time window)
             */
            planned_arrival_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            planned_departure_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_arrival_at: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with a trailing Z
             */
            actual_departure_at: string | null;
            route_id: number;
            /** @enum {string} */
            route_status: "planned" | "active" | "completed" | "archived" | "cancelled";
        };
        /** @description Where the vehicle is */
        PositionInput: {
            /** @description a number or a numeric string */
            lat: number | string;
            /** @description a number or a numeric string */
            lon: number | string;
            /** @description ISO 8601 with a zone, at most 5 minutes ahead of the server clock; default: when received */
            timestamp?: string | null;
            /** @description default 0 */
            speed_kmh?: (number | string) | null;
            /** @description default 0 */
            heading_deg?: (number | string) | null;
        };
        /** @description One position, or a list of 1 to 1000 */
        PositionsRequest: components["schemas"]["PositionInput"] | components["schemas"]["PositionInput"][];
        /** @description Re-plans a day in progress (operations.md "Re-planning a day") */
        ReplanRequest: {
            /** @description YYYY-MM-DD: the delivery date whose planned and active routes are re-planned */
            date: string;
            /** @description new orders to add (status new, that date); none given: every new order of the date */
            order_ids?: number[] | null;
            /** @description new orders to add by external_id */
            external_ids?: string[] | null;
            /** @description free vehicles that may get a new route (default: every free active vehicle) */
            vehicle_ids?: number[] | null;
        };
        /** @description The vehicle is out for the rest of its route's day; its pending stops move */
        VehicleUnavailableRequest: {
            /** @description when the vehicle goes out (default now) */
            from?: string | null;
        };
        /** @description One more order on a date: where it would go and when (nothing is changed) */
        QuoteRequest: {
            /** @description YYYY-MM-DD */
            date: string;
            /** @description latitude, number or decimal string */
            lat: number | string;
            /** @description longitude, number or decimal string */
            lon: number | string;
            /** @description kg (default 0) */
            weight?: (number | string) | null;
            /** @description cubic metres (default 0) */
            volume?: (number | string) | null;
            /** @description minutes at the door (default 10) */
            service_time?: number | null;
            /** @description HH:MM[:SS] local */
            time_window_start?: string | null;
            /** @description HH:MM[:SS] local */
            time_window_end?: string | null;
        };
        /** @description The cheapest place for the order on the date's planned and active routes, or why there is none */
        QuoteResult: {
            /** @constant */
            feasible: true;
            route_id: number;
            /** @description the stop's position in the route if it were added */
            position: number;
            /**
             * Format: date-time
             * @description planned start of service
             */
            eta: string;
            /** @description extra kilometres of the route */
            added_km: number;
            /** @description extra minutes of the route */
            added_min: number;
        } | {
            /** @constant */
            feasible: false;
            /** @enum {string} */
            reason: "capacity" | "time_window" | "max_distance" | "max_duration" | "max_orders" | "requirements" | "no_vehicle" | "unroutable";
        };
        /** @description A vehicle and its route on the date asked for */
        FleetVehicle: {
            id: number;
            name: string;
            warehouse_id: number;
            /** @description false: an inactive vehicle, never planned */
            active: boolean;
            /** @description its route on the date (planned or dispatcher-assigned, not cancelled), null without one */
            route_id: number | null;
            /**
             * @description that route's status, null without one
             * @enum {string|null}
             */
            route_status: "planned" | "active" | "completed" | "archived" | "cancelled" | null;
        };
        /** @description The company's vehicles by id, each with its route on `date` */
        FleetPage: {
            /** @description all matching items */
            count: number;
            /**
             * Format: uri-reference
             * @description link to the next page (relative, or absolute from serve --public-url), null on the last
             */
            next: string | null;
            /**
             * Format: uri-reference
             * @description link to the previous page (relative, or absolute from serve --public-url), null on the first
             */
            previous: string | null;
            results: components["schemas"]["FleetVehicle"][];
            /**
             * Format: date
             * @description YYYY-MM-DD
             */
            date: string;
        };
        /** @description How many positions were stored */
        PositionsAccepted: {
            vehicle_id: number;
            accepted: number;
        };
        /** @description This document (OpenAPI 3.1) */
        OpenApiDocument: {
            openapi: string;
            info: Record<string, never>;
            paths: Record<string, never>;
        };
    };
    responses: {
        /** @description Missing, malformed, unknown or revoked key */
        Unauthorized: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Detail"];
            };
        };
        /** @description The key lacks the scope ("You do not have permission to perform this action (requires scope ...).") */
        Forbidden: {
            headers: {
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Detail"];
            };
        };
        /** @description Over the request limit of the key ("Request was throttled. Expected available in N seconds.") */
        TooManyRequests: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-Id": components["headers"]["X-Request-Id"];
                "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Detail"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The id of the request in the server log (a client-sent X-Request-Id of 1 to 128 word characters, dots and dashes is kept) */
        "X-Request-Id": string;
        /** @description Requests a minute of this key (absent when the limit is off) */
        "RateLimit-Limit": number;
        /** @description Requests left now */
        "RateLimit-Remaining": number;
        /** @description Seconds until the bucket is full again */
        "RateLimit-Reset": number;
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description Always `Api-Key` */
        "WWW-Authenticate": "Api-Key";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listOrders: {
        parameters: {
            query?: {
                status?: "new" | "in_route" | "visited" | "confirmed" | "rejected" | "skipped" | "archived";
                /** @description exact match */
                external_id?: string;
                /** @description page number, from 1; past the last page is 404 "Invalid page." */
                page?: number;
                /** @description default 50; above 200 is served as 200 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of orders */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderPage"];
                };
            };
            /** @description A bad or unknown query parameter, or one given twice; an unknown query parameter (field errors) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description A page past the last ("Invalid page.") ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    createOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderInput"];
            };
        };
        responses: {
            /** @description An order with this external_id exists: it is returned unchanged */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Created, status new */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Field errors (every offending field, unknown and read-only ones included); `{detail}` for a body that is not a JSON object; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    bulkCreateOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderInput"][];
            };
        };
        responses: {
            /** @description Processed; failures are reported per item */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BulkResult"];
                };
            };
            /** @description Whole-request errors `{detail}`: not a non-empty list, or more than 500 orders; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The body is over 6905 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    getOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description an unknown query parameter (field errors); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such order ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    updateOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OrderPatch"];
            };
        };
        responses: {
            /** @description The updated order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Read-only, unknown or invalid fields (field errors); an empty body is `{"detail": "No mutable fields were supplied."}`; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such order ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The order is not in status new: "Order can no longer be updated because it has been dispatched." */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    cancelOrder: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description The archived order */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such order ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The order is in a route, closed or already archived */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    getOrderEvents: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Order id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrderHistory"];
                };
            };
            /** @description an unknown query parameter (field errors); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such order ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    startPlanningJob: {
        parameters: {
            query?: never;
            header?: {
                /** @description 1 to 255 visible ASCII characters. The same key and request within 24 h answer 200 with the first job; another request with the key is 409. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlanningJobRequest"];
            };
        };
        responses: {
            /** @description A repeated Idempotency-Key with the same request: the first job as it is now */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanningJob"];
                };
            };
            /** @description Accepted: the job in status queued */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanningJob"];
                };
            };
            /** @description A 7.5 text (`{detail}`), a bad Idempotency-Key, or a body of the wrong shape (`{detail, <field>: [messages]}`); an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The Idempotency-Key was used with a different request in the last 24 hours */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 1024 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Over the request limit of the key (with Retry-After), or the company already has the most planning jobs queued or running that it may have at once */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Planning is not available on this server (or it is shutting down), or the database is busy */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    getPlanningJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Job id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanningJob"];
                };
            };
            /** @description an unknown query parameter (field errors); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such job ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    listRoutes: {
        parameters: {
            query?: {
                status?: "planned" | "active" | "completed" | "archived" | "cancelled";
                /** @description YYYY-MM-DD */
                date?: string;
                /** @description page number, from 1; past the last page is 404 "Invalid page." */
                page?: number;
                /** @description default 50; above 200 is served as 200 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of routes */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RoutePage"];
                };
            };
            /** @description A bad or unknown query parameter, or one given twice; an unknown query parameter (field errors) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description A page past the last ("Invalid page.") ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    getRoute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The route */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Route"];
                };
            };
            /** @description an unknown query parameter (field errors); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such route ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    getRouteTracking: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The snapshot */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Tracking"];
                };
            };
            /** @description an unknown query parameter (field errors); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"] | components["schemas"]["Detail"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such route ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    assignRouteVehicle: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AssignVehicleRequest"];
            };
        };
        responses: {
            /** @description The route, has_vehicle true */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Route"];
                };
            };
            /** @description A body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such route or vehicle ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The route or the vehicle does not allow it (the detail says why) */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    startRoute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Route id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["StartRouteRequest"];
            };
        };
        responses: {
            /** @description The route, status active */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Route"];
                };
            };
            /** @description A body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such route ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The route is not planned */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    setStopStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Stop id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["StopStatusRequest"];
            };
        };
        responses: {
            /** @description The stop after the change, with its route */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["StopStatusResult"];
                };
            };
            /** @description A body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such stop ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description A transition the stop or its route does not allow (the detail says why) */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    addVehiclePositions: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Vehicle id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PositionsRequest"];
            };
        };
        responses: {
            /** @description Stored */
            201: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PositionsAccepted"];
                };
            };
            /** @description A body of the wrong shape, or a timestamp more than 5 minutes ahead of the server clock; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such vehicle ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 512 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The database is busy (another process holds the write lock); nothing was changed. Retry after Retry-After seconds. */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    "Retry-After": components["headers"]["Retry-After"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    replanDay: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReplanRequest"];
            };
        };
        responses: {
            /** @description Accepted: the re-plan job in status queued */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanningJob"];
                };
            };
            /** @description A 7.5 text (`{detail}`) or a body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The body is over 1024 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Over the request limit of the key (with Retry-After), or the company already has the most planning jobs queued or running that it may have at once */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Planning is not available on this server (or it is shutting down), or the database is busy */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    markVehicleUnavailable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Vehicle id (a non-numeric id or one of another company is 404) */
                id: number;
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["VehicleUnavailableRequest"];
            };
        };
        responses: {
            /** @description Accepted: the re-plan job in status queued */
            202: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlanningJob"];
                };
            };
            /** @description A body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`); a path that is not valid percent-encoding (`{detail}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description No such vehicle ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The vehicle has no planned or active route on the date of `from` */
            409: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Over the request limit of the key (with Retry-After), or the company already has the most planning jobs queued or running that it may have at once */
            429: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Planning is not available on this server (or it is shutting down), or the database is busy */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    quoteOrder: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["QuoteRequest"];
            };
        };
        responses: {
            /** @description The place and ETA, or why there is none */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["QuoteResult"];
                };
            };
            /** @description A body of the wrong shape; an unknown query parameter (field errors); malformed JSON (`{"detail": "Malformed JSON: ..."}`) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"] | components["schemas"]["DetailAndFieldErrors"] | components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description The body is over 64 KiB ("Request body is too large."); checked before it is read */
            413: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
            /** @description The change could not be stored (for example its webhook outbox row); nothing was changed */
            500: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            /** @description Planning is not available on this server, or the database is busy */
            503: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    /** @description Seconds to wait before retrying (sent with a busy database or the request limit) */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
        };
    };
    listFleet: {
        parameters: {
            query: {
                /** @description YYYY-MM-DD */
                date: string;
                /** @description page number, from 1; past the last page is 404 "Invalid page." */
                page?: number;
                /** @description default 50; above 200 is served as 200 */
                page_size?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of vehicles, with the date */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FleetPage"];
                };
            };
            /** @description No date, a bad one, or a bad or unknown query parameter; an unknown query parameter (field errors) */
            400: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FieldErrors"];
                };
            };
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            /** @description A page past the last ("Invalid page.") ("Not found."; also an id of another company) */
            404: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    "RateLimit-Limit": components["headers"]["RateLimit-Limit"];
                    "RateLimit-Remaining": components["headers"]["RateLimit-Remaining"];
                    "RateLimit-Reset": components["headers"]["RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Detail"];
                };
            };
            429: components["responses"]["TooManyRequests"];
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The document */
            200: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OpenApiDocument"];
                };
            };
        };
    };
}
