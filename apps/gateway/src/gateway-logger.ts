/** The gateway's logger (pino), for a controller that notes what it let go without failing the request. */
export const GATEWAY_LOGGER = Symbol('GatewayLogger');
