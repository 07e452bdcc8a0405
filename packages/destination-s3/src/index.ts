export { ObjectSinkError, type ObjectSink, type ObjectSinkFactory, type ObjectSinkSettings } from './object-sink.ts';
export { S3ObjectSink, s3ObjectSink } from './s3-object-sink.ts';
