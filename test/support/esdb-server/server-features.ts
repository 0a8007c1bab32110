import type * as grpc from '@grpc/grpc-js';
import { SupportedMethod, SupportedMethods } from './protocol.ts';

// The version the test server answers as: the client picks its code paths from the methods listed
// (6.2.1 asks whether Streams.BatchAppend exists, and uses it for every append without credentials).
export const SERVER_VERSION = '23.10.0';

// What an EventStoreDB 23.10 node lists for the services the test server implements: names in lower
// case, and the features it declares on the read method.
const METHODS: [service: string, method: string, features: string[]][] = [
  ['event_store.client.streams.streams', 'read', ['position', 'events']],
  ['event_store.client.streams.streams', 'append', []],
  ['event_store.client.streams.streams', 'batchappend', []],
  ['event_store.client.server_features.serverfeatures', 'getsupportedmethods', []],
];

export function getSupportedMethodsHandler(): grpc.handleUnaryCall<unknown, InstanceType<typeof SupportedMethods>> {
  return (_call, callback) => {
    const answer = new SupportedMethods();
    answer.setEventStoreServerVersion(SERVER_VERSION);
    answer.setMethodsList(
      METHODS.map(([service, method, features]) => {
        const supported = new SupportedMethod();
        supported.setServiceName(service);
        supported.setMethodName(method);
        supported.setFeaturesList(features);
        return supported;
      }),
    );
    callback(null, answer);
  };
}
