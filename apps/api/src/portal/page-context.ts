import type { Integration, Mode } from '@garage/domain';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sideOf } from './session.js';

/** What every page shows around its content: names, the live / test switch, the CSRF token of its forms. */
export interface PageContext {
  title: string;
  page: string;
  mode: Mode;
  csrf: string;
  live: Integration;
  /** The side the page shows: the live integration, or its test side; null in test mode without a sandbox. */
  side: Integration | null;
  garageName: string;
}

export const pageContext = async (request: FastifyRequest, reply: FastifyReply, page: string, title: string, mode: Mode): Promise<PageContext> => {
  const { live, side } = await sideOf(request, mode);
  const garage = await request.server.portal.findGarage(live.garageId);
  return { title, page, mode, csrf: reply.generateCsrf(), live, side, garageName: garage?.name ?? '' };
};

/** A page URL keeping the mode switch: `href('/portal/requests', 'test')`. */
export const href = (path: string, mode: Mode, query: Record<string, string | undefined> = {}) => {
  const params = new URLSearchParams();
  if (mode === 'test') params.set('mode', 'test');
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
};
