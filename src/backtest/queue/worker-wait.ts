// --worker-wait's default, in a module of its own so that the CLI's options name it without loading BullMQ: how long
// a queue run may go with no propsim worker connected, or with Redis not answering, before it stops with exit 1
// (docs/scaling.md#failures). A minute lets workers be started after the coordinator, and Redis restart.
export const DEFAULT_WORKER_WAIT_S = 60;
