/*
 * The lifecycle of one deferred plugin of a plugin folder, as BeeHive implements it (Sources/BeeHive/
 * Hive+PluginDirectories.swift, PluginDirectories.swift, Hive.swift's loadPlugin/unloadPlugin/deliver, and
 * Sources/BeeHiveRegistry/DeferredPlugins.swift): route lookups from several threads that find it through its
 * placeholder and load it on first use, an unload, and a refresh, in every interleaving. Each lock of the code
 * is a lock here or an atomic step where the code holds it for the whole step; waiting on DeferredPlugins'
 * condition is a guard that blocks until the load it waits for has ended.
 *
 * The plugin declares one route. Its states are those of DeferredPlugins.loads[path] (NONE: indexed,
 * LOADING, LOADED, FAILED) with the hive's load count and the registry's view of the object; see
 * docs/internals/plugin-lifecycle.md for the states and the invariants checked.
 *
 * scripts/check-model runs the exhaustive search: spin -a, cc pan.c, ./pan.
 */

#ifndef FIRST_USES
#define FIRST_USES 2
#endif


mtype = { NONE, LOADING, LOADED, FAILED };              /* DeferredPlugins.loads[path] */
mtype = { WAITING, HANDLED, UNMATCHED, UNAVAILABLE };   /* what a route lookup answered */

mtype deferred = NONE;
bool unloadedWhileLoading = false;
byte count = 0;             /* the hive's load count (Hive.state.plugins[identity].loads) */
byte loaderReferences = 0;  /* the dynamic loader's references to the object */
bool mapped = false;        /* the object is mapped */
bool present = false;       /* the registry's last walk saw the object */
bool retired = false;       /* the registry retired the object's records (retireObjects) */
bool reachable = false;     /* the route is in the hive's router: a lookup reaches the plugin's handler */
bool pending = true;        /* the folder's placeholders are not made yet (made at the first route lookup) */
bool loadedWhilePending = false;
bool placeholder = false;   /* PluginDirectories.routes holds the route's placeholder: a miss loads the plugin */
bool answered = false;      /* PluginDirectories.answeredRoutes holds it: a miss finds the load done */
byte loaders = 0;           /* threads running the loader (Hive.loadPlugin) for the plugin */
byte loadsCounted = 0;      /* ghost: loads the hive counted */
byte unloadsCounted = 0;    /* ghost: unloads the hive counted; the last of them retires the plugin */
byte retirements = 0;       /* ghost: unloads that retired the plugin */
byte finished = 0;

bool delivering = false;    /* Hive.deliveries: one delivery at a time */
bool placeholders = false;  /* PluginDirectories.placeholders */

inline lock(held) { atomic { !held -> held = true } }
inline unlock(held) { held = false }

/* AnnotationRegistry.refresh(): the walk sees the object while it is mapped. */
inline walk() { present = mapped }

/* One step of Hive.deliver (synchronize): the router holds the records of the objects the registry has and has
   not retired. */
inline synchronize() { reachable = present && !retired }

/* PluginDirectories.makePendingPlaceholders, under `placeholders`. */
inline makePending() {
    if
    :: pending ->
        if
        :: loadedWhilePending -> answered = true
        :: else -> placeholder = true
        fi;
        pending = false;
        loadedWhilePending = false
    :: else -> skip
    fi
}

/* dlclose: the loader unmaps the object with its last reference. */
inline release() {
    atomic {
        loaderReferences--;
        if
        :: loaderReferences == 0 -> mapped = false
        :: else -> skip
        fi
    }
}

/* Router.route of a URL only the plugin's route matches, on a miss asking the hive's deferred lookup
   (PluginDirectories.route, then provideDeferred, then DeferredPlugins.load), and routing once more after it. */
proctype FirstUse() {
    mtype outcome = WAITING;
    byte retirementsBefore = retirements;
    bool found, mine, failed, wasUnloaded, isNew;

    if
    :: reachable -> outcome = HANDLED; goto done
    :: else -> skip
    fi;
    lock(placeholders);
    makePending();
    found = placeholder || answered;
    unlock(placeholders);
    if
    :: !found -> outcome = UNMATCHED; goto done
    :: else -> skip
    fi;
    /* The gate: the first thread marks the load under way; the others wait for it to end. */
    atomic {
        if
        :: deferred == NONE -> deferred = LOADING; mine = true
        :: deferred == LOADED || deferred == FAILED -> mine = false
        fi
    }
    if
    :: !mine && deferred == FAILED -> outcome = UNAVAILABLE; goto done
    :: !mine && deferred != FAILED -> goto again
    :: else -> skip
    fi;
    /* No lock held: Hive.loadPlugin, which runs the plugin's constructors. */
    atomic { loaders++; assert(loaders == 1) }
    if
    :: true ->
        failed = false;
        atomic { loaderReferences++; mapped = true };
        atomic {
            if
            :: count > 0 -> count++; isNew = false
            :: else -> count = 1; isNew = true
            fi;
            loadsCounted++
        }
        if
        :: isNew ->
            walk();
            retired = false;    /* reinstateObjects */
            lock(delivering);
            synchronize();
            unlock(delivering)
        :: else -> release()
        fi
    :: true -> failed = true    /* the file changed since it was indexed, or the loader refused it */
    fi;
    atomic { loaders-- };
    atomic {
        wasUnloaded = unloadedWhileLoading;
        unloadedWhileLoading = false;
        if
        :: failed -> deferred = FAILED
        :: !failed && wasUnloaded -> deferred = NONE
        :: !failed && !wasUnloaded -> deferred = LOADED
        fi
    }
    if
    :: failed -> outcome = UNAVAILABLE; goto done
    :: else -> skip
    fi;
    /* PluginDirectories.loaded: its placeholder moves to answeredRoutes, unless it was unloaded since. */
    lock(placeholders);
    if
    :: deferred == LOADED ->
        if
        :: pending -> loadedWhilePending = true
        :: else -> skip
        fi;
        if
        :: placeholder -> placeholder = false; answered = true
        :: else -> skip
        fi
    :: else -> skip
    fi;
    unlock(placeholders);
again:
    if
    :: reachable -> outcome = HANDLED
    :: else -> outcome = UNMATCHED
    fi;
done:
    /* Every waiter gets an outcome; a lookup is unmatched only when the plugin was unloaded meanwhile. */
    assert(outcome != WAITING);
    assert(outcome != UNMATCHED || retirements != retirementsBefore);
    atomic { finished++ }
}

/* Hive.unloadPlugin, then Hive.pluginUnloaded (DeferredPlugins.unloaded, PluginDirectories.unloaded). */
proctype Unload() {
    bool leaving, deferredAgain;

    /* Plugin.loadedIdentity: dlopen with RTLD_NOLOAD. */
    if
    :: !mapped -> goto done
    :: else -> skip
    fi;
    atomic {
        if
        :: count == 0 -> leaving = false    /* pluginNotLoaded */
        :: count > 1 -> count--; unloadsCounted++; leaving = false
        :: count == 1 -> count = 0; unloadsCounted++; leaving = true; retirements++
        fi
    }
    if
    :: !leaving -> goto done
    :: else -> skip
    fi;
    retired = true;     /* retireObjects */
    /* deliver: the records leave, then dlclose, then the walk sees it gone */
    lock(delivering);
    synchronize();
    release();
    walk();
    synchronize();
    unlock(delivering);
    atomic {
        if
        :: deferred == LOADED -> deferred = NONE; deferredAgain = true
        :: deferred == LOADING -> unloadedWhileLoading = true; deferredAgain = true
        :: else -> deferredAgain = false
        fi
    }
    if
    :: deferredAgain ->
        lock(placeholders);
        makePending();
        answered = false;
        if
        :: !placeholder -> placeholder = true
        :: else -> skip
        fi;
        unlock(placeholders)
    :: else -> skip
    fi;
done:
    atomic { finished++ }
}

/* Hive.refresh() from another thread. */
proctype Refresh() {
    walk();
    lock(delivering);
    synchronize();
    unlock(delivering);
    atomic { finished++ }
}

/* At every step: nothing of an unmapped object is reachable (its handler's code would be gone), the plugin is
   loaded at most once at a time, and the count is the loads less the unloads. The guard is evaluated in every
   state of the search, so the assertion fails in the first state where the invariant does not hold. */
#define invariant ((!reachable || mapped) && loaders <= 1 && count <= 1 && count == loadsCounted - unloadsCounted)

active proctype Watch() {
end:
    atomic { !invariant -> assert(invariant) }
}

init {
    byte i;
    atomic {
        for (i : 1 .. FIRST_USES) { run FirstUse() }
        run Unload();
        run Refresh()
    }
    finished == FIRST_USES + 2;
    /* Once every thread is done: a loaded plugin's route is reachable and its placeholder answers, an unloaded
       one's is not reachable and its placeholder loads it again; the count is zero exactly when it was last
       unloaded. */
    assert(deferred != LOADING && !unloadedWhileLoading && loaders == 0);
    assert((deferred == LOADED) == (count > 0));
    assert(reachable == (count > 0));
    assert(deferred != LOADED || (answered && !placeholder) || (pending && loadedWhilePending));
    assert(deferred != NONE || ((placeholder || pending) && !answered));
    assert(!(present && !retired) || count > 0);
    assert(retirements == unloadsCounted && (count == 0) == (loadsCounted == unloadsCounted))
}
