"""Running hands at scale: jobs cut into chunks, run through joblib (threads, processes
or Dask), merged into streamed aggregates, and kept in a resumable Parquet result store."""
