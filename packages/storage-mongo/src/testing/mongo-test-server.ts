/**
 * Where the MongoDB adapter's tests find a server: `TEST_MONGO_URL` (CI points it at FerretDB),
 * else a throwaway `mongo:7` container through testcontainers where Docker runs. In CI a missing
 * server is an error; elsewhere the tests are skipped and say why.
 */
export interface MongoTestServer {
  url: string;
  stop(): Promise<void>;
}

export type MongoTestServerResult = { server: MongoTestServer } | { skipReason: string };

export async function mongoTestServer(): Promise<MongoTestServerResult> {
  const fromEnv = process.env.TEST_MONGO_URL;
  if (fromEnv) return { server: { url: fromEnv, stop: async () => undefined } };
  try {
    const { GenericContainer, Wait } = await import('testcontainers');
    const container = await new GenericContainer('mongo:7')
      .withExposedPorts(27017)
      .withWaitStrategy(Wait.forListeningPorts())
      .withStartupTimeout(60_000)
      .start();
    return {
      server: {
        url: `mongodb://${container.getHost()}:${container.getMappedPort(27017)}/`,
        stop: async () => {
          await container.stop();
        },
      },
    };
  } catch (error) {
    const reason = `no MongoDB server: TEST_MONGO_URL is unset and Docker is unavailable (${error instanceof Error ? error.message.split('\n')[0] : String(error)}). Run \`scripts/ferretdb.sh start\` and set TEST_MONGO_URL to test the MongoDB adapter.`;
    if (process.env.CI === 'true') throw new Error(`CI requires the MongoDB integration tests: ${reason}`);
    return { skipReason: reason };
  }
}
