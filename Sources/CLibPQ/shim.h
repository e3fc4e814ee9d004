// libpq, PostgreSQL's client library (Debian: libpq-dev): the batch database's connection.
#include <libpq-fe.h>
