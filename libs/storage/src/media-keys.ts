/** Every spark file of a client is stored under this prefix in the sparks bucket (export and erasure rely on it). */
export const sparkMediaPrefix = (userId: string) => `${userId}/`;
