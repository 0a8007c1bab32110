// The client package brings google-protobuf's typings only for itself; the test server needs Any to
// carry error details (google.rpc.Status), as EventStoreDB does.
declare module 'google-protobuf/google/protobuf/any_pb.js' {
  export class Any {
    pack(serialized: Uint8Array, name: string, typeUrlPrefix?: string): void;
    getTypeName(): string;
  }
  const anyPb: { Any: typeof Any };
  export default anyPb;
}
