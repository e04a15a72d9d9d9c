import type { components } from './generated/bcb-api-pix';
import type * as Wire from './wire';

// The wire types are written by hand, narrower than the BCB document (exactly one of cpf or cnpj, the fields the
// platform uses required where the bank always sends them); this file holds them to the document: each one must be
// a value the BCB's own schema accepts, or `tsc` (the bank project's lint) fails. Types only: nothing of it runs.

type Schemas = components['schemas'];
type Bodies = components['requestBodies'];
type JsonBody<Name extends keyof Bodies> = Bodies[Name] extends { content: { 'application/json': infer Body } } ? Body : never;

/** Compiles only when every value of `Ours` is a value of `Bcb`. */
type Conforms<Ours extends Bcb, Bcb> = Ours;

export type WireConformance = [
  Conforms<Wire.RecSolicitada, Schemas['RecSolicitada']>,
  Conforms<Wire.RecRevisada, Schemas['RecRevisada']>,
  Conforms<Wire.RecGerada, Schemas['RecGerada']>,
  Conforms<Wire.RecCompleta, Schemas['RecCompleta']>,
  Conforms<Wire.RecPayload, Schemas['RecPayload']>,
  Conforms<Wire.LocRec, Schemas['PayloadLocationRecCompleta']>,
  Conforms<Wire.SolicRecSolicitada, Schemas['SolicRecSolicitada']>,
  Conforms<Wire.SolicRecCompleta, Schemas['SolicRecCompleta']>,
  Conforms<Wire.CobSolicitada, Schemas['CobSolicitada']>,
  Conforms<Wire.CobGerada, Schemas['CobGerada']>,
  Conforms<Wire.CobCompleta, Schemas['CobCompleta']>,
  Conforms<Wire.CobRevisada, Schemas['CobRevisada']>,
  Conforms<Wire.CobVSolicitada, Schemas['CobVSolicitada']>,
  Conforms<Wire.CobVRevisada, Schemas['CobVRevisada']>,
  Conforms<Wire.CobVGerada, Schemas['CobVGerada']>,
  Conforms<Wire.CobVCompleta, Schemas['CobVCompleta']>,
  Conforms<Wire.CobVPayload, Schemas['CobVPayload']>,
  Conforms<Wire.PixRecebido, Schemas['Pix']>,
  Conforms<Wire.DevolucaoSolicitada, Schemas['DevolucaoSolicitada']>,
  Conforms<Wire.Devolucao, Schemas['Devolucao']>,
  Conforms<Wire.WebhookPix, Schemas['WebhookCompleto']>,
  Conforms<Wire.WebhookPixCallback, JsonBody<'WebhookPixBody'>>,
  Conforms<Wire.WebhookRec, Schemas['WebhookRecCompleto']>,
  Conforms<Wire.WebhookRecCallback, JsonBody<'WebhookRecBody'>>,
  Conforms<Wire.CobRSolicitada, Schemas['CobRSolicitada']>,
  Conforms<Wire.CobRGerada, Schemas['CobRGerada']>,
  Conforms<Wire.CobRCompleta, Schemas['CobRCompleta']>,
  Conforms<Wire.PixAutomatico, Schemas['PixAutomatico']>,
  Conforms<Wire.WebhookCobRCallback, JsonBody<'WebhookCobRBody'>>,
];
