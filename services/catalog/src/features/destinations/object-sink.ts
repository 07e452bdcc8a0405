/**
 * The port destinations write through. The shape is the adapter package's (`@crawl/destination-s3`),
 * re-exported so the feature's code names the port, never the SDK; tests pass any object of this shape.
 */
export { ObjectSinkError, type ObjectSink, type ObjectSinkFactory, type ObjectSinkSettings } from '@crawl/destination-s3';
