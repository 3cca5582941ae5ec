import type { StateCreator } from 'zustand';
import type { PaymentSettingsSlice } from '../billing/paymentSettingsSlice';
import type { SessionSlice } from '../session/sessionSlice';
import type { UiSlice } from './uiSlice';

/** The combined state: one slice per concern, added here as features arrive. */
export type AppState = UiSlice & SessionSlice & PaymentSettingsSlice;

/** Middlewares applied to the combined store (and only there). */
export type AppMiddlewares = [['zustand/devtools', never]];

/** Signature of a slice creator for the combined store. */
export type AppSliceCreator<Slice> = StateCreator<AppState, AppMiddlewares, [], Slice>;
