import { makeAdminUseCases } from '@garage/composition';
import {
  makeDestinationPolicy,
  makeEndPortalSession,
  makeListPortalActions,
  makeMoveVersionPin,
  makeOpenPortalSession,
  makeRecordPortalAction,
  makeResolvePortalSession,
  systemClock,
  type Clock,
} from '@garage/domain';
import { makePortalStore, makeRepositories } from '@garage/postgres';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The connector portal's use cases (docs/reference/contract.md §10): its sessions and audit, and the very use cases
 * the CLI (webhook URLs, secret rotation, version pin) and the API routes (webhook test, retry, lists) call, so that a
 * rule is never implemented twice for the browser.
 */
const makePortalUseCases = (app: FastifyInstance, clock: Clock, webhookAllowedNetworks: readonly string[]) => {
  const { db } = app.storage.handle;
  const portal = makePortalStore(db);
  const repos = makeRepositories(db);
  const admin = makeAdminUseCases(db, app.storage.encryptionKeys, { clock, destinations: makeDestinationPolicy([...webhookAllowedNetworks]) });
  return {
    openSession: makeOpenPortalSession({ portal, clock }),
    resolveSession: makeResolvePortalSession({ portal, clock }),
    endSession: makeEndPortalSession({ portal, clock }),
    listActions: makeListPortalActions({ portal }),
    recordAction: makeRecordPortalAction({ portal }),
    moveVersionPin: makeMoveVersionPin({
      updatePin: (integrationId, apiVersion) => admin.updateIntegration(integrationId, { apiVersion }),
      portal,
      clock,
    }),
    findIntegration: (id: string) => repos.integrations.findById(id),
    findTestSide: (liveId: string) => repos.integrations.findTestSide(liveId),
    findGarage: (id: string) => repos.garages.findById(id),
    keyEndings: (liveId: string) => portal.keyEndings(liveId),
    updateIntegration: admin.updateIntegration,
    rotateWebhookSecret: admin.rotateWebhookSecret,
    rotateTestWebhookSecret: admin.rotateTestWebhookSecret,
    listDeliveries: admin.listWebhookDeliveries,
    clock,
  };
};

export type PortalUseCases = ReturnType<typeof makePortalUseCases>;

declare module 'fastify' {
  interface FastifyInstance {
    portal: PortalUseCases;
  }
}

export default fp(
  async (app: FastifyInstance, { clock = systemClock, webhookAllowedNetworks = [] }: { clock?: Clock; webhookAllowedNetworks?: readonly string[] }) => {
    app.decorate('portal', makePortalUseCases(app, clock, webhookAllowedNetworks));
  },
  { name: 'portal-use-cases', dependencies: ['storage'] },
);
