import { HttpsProxyAgent, type HttpsProxyAgentOptions } from 'https-proxy-agent';

/**
 * A kept-alive CONNECT tunnel through HTTPS_PROXY to an HTTPS gateway. Its protocol is stated: left
 * unset, agent-base works it out from a stack trace (a new Error) each time node reads it, on every
 * request, which cost more CPU and garbage than the rest of a send once gateways answer fast.
 */
export function tunnelAgent(proxy: string, options: HttpsProxyAgentOptions<string>): HttpsProxyAgent<string> {
  const agent = new HttpsProxyAgent(proxy, { keepAlive: true, ...options });
  agent.protocol = 'https:';
  return agent;
}
