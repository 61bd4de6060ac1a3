import http, { type IncomingMessage } from 'node:http';
import net, { type AddressInfo, type Socket } from 'node:net';

/**
 * A forward HTTP proxy on 127.0.0.1 standing in for a commercial proxy pool in tests: absolute-form
 * requests and CONNECT tunnels, optional Basic credentials, and outgoing connections from its own
 * loopback address (`sourceAddress`, e.g. 127.0.0.2), so a test site can tell which proxy a request
 * came through by `request.socket.remoteAddress`.
 */
export interface ForwardProxy {
  url: string;
  /** Targets carried (`host:port`), in order. */
  carried: string[];
  /** Requests refused for missing or wrong credentials. */
  refusedAuth: number;
  close(): Promise<void>;
}

export async function startForwardProxy(options: { sourceAddress: string; credentials?: { user: string; password: string } }): Promise<ForwardProxy> {
  const carried: string[] = [];
  const sockets = new Set<Socket>();
  const expected = options.credentials ? `Basic ${Buffer.from(`${options.credentials.user}:${options.credentials.password}`).toString('base64')}` : undefined;
  const state = { refusedAuth: 0 };
  const isAllowed = (request: IncomingMessage) => {
    if (!expected || request.headers['proxy-authorization'] === expected) return true;
    state.refusedAuth++;
    return false;
  };

  const server = http.createServer((request, response) => {
    if (!isAllowed(request)) return void response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' }).end();
    const target = new URL(request.url ?? '');
    carried.push(target.host);
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    delete headers['proxy-connection'];
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port || 80,
        path: target.pathname + target.search,
        method: request.method,
        headers,
        localAddress: options.sourceAddress,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', () => response.writeHead(502).end());
    request.pipe(upstream);
  });
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('error', () => undefined);
    if (!isAllowed(request)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="test"\r\n\r\n');
    const [host, port] = (request.url ?? '').split(':');
    carried.push(request.url ?? '');
    const upstream = net.connect({ host: host!, port: Number(port), localAddress: options.sourceAddress }, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const auth = options.credentials ? `${options.credentials.user}:${options.credentials.password}@` : '';
  return {
    url: `http://${auth}127.0.0.1:${port}`,
    carried,
    get refusedAuth() {
      return state.refusedAuth;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
