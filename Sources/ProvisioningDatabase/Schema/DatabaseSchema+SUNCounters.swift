extension DatabaseSchema {
    /// Version 2: the read counters a verification server accepted (``DatabaseCounterStore``),
    /// the optional log of every acceptance, and the function that decides a request.
    ///
    /// `ndeftool_sun_counters` holds one row per key set and tag: the last SDMReadCtr accepted
    /// and the token of the request that accepted it. `ndeftool_sun_accepts` is the log: one row
    /// per counter accepted, numbered (`sequence`) while the tag's row is locked, so that a tag's
    /// log rows are in the order their transactions committed.
    ///
    /// `ndeftool_sun_accept` decides one request in one statement:
    ///
    /// 1. `INSERT ... ON CONFLICT (key_set, uid) DO UPDATE ... WHERE` the stored counter is below
    ///    the request's, or equal with the same token (a repeat). PostgreSQL inserts the row, or
    ///    locks the existing one (waiting for a transaction that holds it) and evaluates the
    ///    condition on its latest committed version, not on the statement's snapshot; a row it
    ///    does not update stays locked too (PostgreSQL 15 documentation, INSERT, "ON CONFLICT
    ///    Clause"). Two requests for one tag are so decided one after the other, each on what
    ///    the other committed, and each counter goes in once at most.
    /// 2. Accepted: with `p_log`, the log row, numbered under the row's lock.
    /// 3. Refused: with `p_log`, a log row with the request's counter and token says it was
    ///    accepted before (a repeat after a later counter of the tag); otherwise the answer is the
    ///    row's counter, read by a statement of its own (in READ COMMITTED each statement of a
    ///    function sees what committed before it began) while this transaction still holds the
    ///    row's lock: the very counter that refused the request.
    ///
    /// The proof is for READ COMMITTED, PostgreSQL's default. Under a stricter default
    /// isolation the statement stays safe: a row changed since the transaction's snapshot makes
    /// it fail with SQLSTATE 40001, which the store sends again.
    static let version2 = """
        CREATE TABLE ndeftool_sun_counters (
            key_set text NOT NULL CHECK (octet_length(key_set) BETWEEN 1 AND 200),
            uid bytea NOT NULL CHECK (octet_length(uid) = 7),
            counter integer NOT NULL CHECK (counter BETWEEN 0 AND 16777215),
            token text NOT NULL,
            accepted_at timestamptz NOT NULL DEFAULT now(),
            PRIMARY KEY (key_set, uid)
        );
        CREATE TABLE ndeftool_sun_accepts (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            key_set text NOT NULL,
            uid bytea NOT NULL,
            counter integer NOT NULL,
            token text NOT NULL,
            accepted_at timestamptz NOT NULL DEFAULT now(),
            UNIQUE (key_set, uid, counter)
        );
        CREATE FUNCTION ndeftool_sun_accept(p_key_set text, p_uid bytea, p_counter integer, p_token text,
                                            p_log boolean)
        RETURNS TABLE (decision_accepted boolean, decision_last integer)
        LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO ndeftool_sun_counters AS c (key_set, uid, counter, token)
            VALUES (p_key_set, p_uid, p_counter, p_token)
            ON CONFLICT (key_set, uid) DO UPDATE
                SET counter = excluded.counter, token = excluded.token, accepted_at = now()
                WHERE c.counter < excluded.counter OR (c.counter = excluded.counter AND c.token = excluded.token);
            IF FOUND THEN
                IF p_log THEN
                    INSERT INTO ndeftool_sun_accepts (key_set, uid, counter, token)
                    VALUES (p_key_set, p_uid, p_counter, p_token)
                    ON CONFLICT (key_set, uid, counter) DO NOTHING;
                END IF;
                RETURN QUERY SELECT true, p_counter;
                RETURN;
            END IF;
            IF p_log AND EXISTS (SELECT 1 FROM ndeftool_sun_accepts a WHERE a.key_set = p_key_set AND a.uid = p_uid
                                 AND a.counter = p_counter AND a.token = p_token) THEN
                RETURN QUERY SELECT true, p_counter;
                RETURN;
            END IF;
            RETURN QUERY SELECT false, c.counter FROM ndeftool_sun_counters c
                WHERE c.key_set = p_key_set AND c.uid = p_uid;
        END
        $$;
        """
}
